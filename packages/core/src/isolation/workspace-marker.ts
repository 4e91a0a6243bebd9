import { lstatSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processStartTimeMs } from '@snodo/foundation';
import { z } from 'zod';

/** The marker's file name inside a workspace's `.git` directory. */
export const workspaceMarkerFileName = 'snodo-workspace.json';

/**
 * What `<workspace>/.git/snodo-workspace.json` records. snodo writes it when it creates a task workspace
 * and reads it to recognise its own workspaces: list, prune and remove touch a directory only when its
 * marker names this repository and the branch asked for. Inside the sandbox it is read-only, so a coder
 * cannot make snodo treat another directory as its workspace. It plays the part the worktree lock reason
 * played for linked worktrees.
 */
export const workspaceMarkerSchema = z.object({
  /** Always `task-workspace`: tells this file apart from anything else with the same name. */
  kind: z.literal('task-workspace'),
  /** The marker's format version. */
  version: z.literal(1),
  /** The job the workspace belongs to. */
  jobId: z.string(),
  /** The task branch, e.g. `snodo/j_abc-add-login` (short name). */
  branch: z.string(),
  /** The base's full ref, e.g. `refs/heads/trunk`. */
  baseRef: z.string(),
  /** The base commit the task branch started from. */
  baseCommit: z.string(),
  /** The user's repository's git common directory (absolute, symlinks resolved): whose workspace this is. */
  gitCommonDirectory: z.string(),
  /** When the workspace was created (ISO 8601). */
  createdAt: z.string(),
  /** The snodo process that created it, so prune can tell a live job without its records. */
  pid: z.number().int(),
  /** That process's start time (Linux), so a reused pid is not mistaken for it. */
  processStartTimeMs: z.number().optional(),
});
export type WorkspaceMarker = z.infer<typeof workspaceMarkerSchema>;

/** Where the marker of the workspace at `worktreePath` lives. */
export function workspaceMarkerPath(worktreePath: string): string {
  return path.join(worktreePath, '.git', workspaceMarkerFileName);
}

/** Write the marker of a workspace being created (the `.git` directory must exist). */
export function writeWorkspaceMarker(
  worktreePath: string,
  fields: Omit<WorkspaceMarker, 'kind' | 'version' | 'createdAt' | 'pid' | 'processStartTimeMs'>,
): WorkspaceMarker {
  const startTime = processStartTimeMs(process.pid);
  const marker: WorkspaceMarker = {
    kind: 'task-workspace',
    version: 1,
    ...fields,
    createdAt: new Date().toISOString(),
    pid: process.pid,
    ...(startTime === undefined ? {} : { processStartTimeMs: startTime }),
  };
  writeFileSync(workspaceMarkerPath(worktreePath), `${JSON.stringify(marker, null, 2)}\n`, { flag: 'wx' });
  return marker;
}

/**
 * The marker of the workspace at `worktreePath`, or `undefined` when there is none or it is not one of
 * snodo's (unreadable, malformed, a symlink, or `.git` is not a plain directory). Filesystem only.
 */
export function readWorkspaceMarker(worktreePath: string): WorkspaceMarker | undefined {
  try {
    if (!lstatSync(path.join(worktreePath, '.git')).isDirectory()) return undefined;
    const markerPath = workspaceMarkerPath(worktreePath);
    if (!lstatSync(markerPath).isFile()) return undefined;
    const parsed = workspaceMarkerSchema.safeParse(JSON.parse(readFileSync(markerPath, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
