/**
 * The reason snodo writes when it locks a task worktree (`git worktree lock --reason`): it names snodo, the
 * job and the process, so `git worktree list` tells a human who holds it, and snodo only ever unlocks its
 * own locks.
 */
export function workspaceLockReason(jobId: string, pid: number = process.pid): string {
  return `snodo job ${jobId} pid ${pid}`;
}

/** What a lock reason written by snodo says. */
export interface ParsedWorkspaceLockReason {
  /** The job that locked the worktree. */
  readonly jobId: string;
  /** The snodo process that locked it, when recorded. */
  readonly pid?: number;
}

/** Parse a lock reason; `undefined` when the lock is not snodo's (another tool's or a human's). */
export function parseWorkspaceLockReason(reason: string | undefined): ParsedWorkspaceLockReason | undefined {
  if (reason === undefined) return undefined;
  const match = /^snodo job ([A-Za-z0-9_-]+)(?: pid (\d+))?$/.exec(reason.trim());
  if (match === null || match[1] === undefined) return undefined;
  return match[2] === undefined ? { jobId: match[1] } : { jobId: match[1], pid: Number(match[2]) };
}
