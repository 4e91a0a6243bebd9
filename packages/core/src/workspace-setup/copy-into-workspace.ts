import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { git } from '../git/git.js';
import { isPathInside } from '../isolation/path-inside.js';
import { copyPatternProblem } from '../protocol/protocol-setup-schema.js';

/** Options of `copyIntoWorkspace`. */
export interface CopyIntoWorkspaceOptions {
  /** The user's main checkout, where the files are. */
  readonly repositoryRoot: string;
  /** The job's workspace, where they go (same relative paths). */
  readonly workspacePath: string;
  /** `execution.copy_into_workspace`: globs relative to the repository root. */
  readonly patterns: readonly string[];
}

/** What `copyIntoWorkspace` did. */
export interface CopyIntoWorkspaceResult {
  /** Relative paths copied, `/`-separated, sorted. */
  readonly copied: readonly string[];
  /** Patterns that matched no untracked file (worth a note: a typo, or a file not created yet). */
  readonly unmatched: readonly string[];
  /** Matches left alone, with why: a symbolic link, a tracked file (the workspace has its committed version). */
  readonly skipped: readonly { readonly path: string; readonly reason: string }[];
}

/** Directories never walked for a glob: git's own, and dependency trees a glob would never mean. */
const NEVER_WALKED = new Set(['.git', 'node_modules']);

/** Every regular file and link under `directory` (relative to `root`), without following links. */
async function walk(root: string, directory: string, found: string[]): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(path.join(root, directory), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const relative = directory === '' ? entry.name : `${directory}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!NEVER_WALKED.has(entry.name)) await walk(root, relative, found);
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      found.push(relative);
    }
  }
}

/** The files one pattern matches in `root`: a literal path is looked up, a glob walked from its static base. */
async function matchPattern(root: string, pattern: string): Promise<string[]> {
  const scanned = picomatch.scan(pattern);
  if (!scanned.isGlob) {
    const stat = await fs.lstat(path.join(root, pattern)).catch(() => undefined);
    return stat !== undefined && (stat.isFile() || stat.isSymbolicLink())
      ? [path.posix.normalize(pattern)]
      : [];
  }
  const base = scanned.base === '.' ? '' : scanned.base;
  const candidates: string[] = [];
  await walk(root, base, candidates);
  const matches = picomatch(pattern, { dot: true });
  return candidates.filter((candidate) => matches(candidate));
}

/**
 * Copies the untracked files a project needs and git does not hold (`.env`, `config/local.json`) from the
 * user's checkout into the job's workspace, before setup runs, keeping their relative paths and modes.
 * Tracked files are not copied (the workspace has the committed version; copying would smuggle the user's
 * uncommitted edits into the task's diff), nor symbolic links (a link is resolved in the sandbox, where its
 * target may be a file the job must not read). Patterns are checked again here (no absolute path, no `..`,
 * nothing under `.git`), so an embedder that skipped the protocol's schema cannot copy from outside.
 */
export async function copyIntoWorkspace(options: CopyIntoWorkspaceOptions): Promise<CopyIntoWorkspaceResult> {
  const { repositoryRoot, workspacePath } = options;
  const unmatched: string[] = [];
  const matched = new Set<string>();
  for (const pattern of options.patterns) {
    const problem = copyPatternProblem(pattern);
    if (problem !== undefined) throw new Error(`execution.copy_into_workspace: ${problem}`);
    const files = await matchPattern(repositoryRoot, pattern);
    if (files.length === 0) unmatched.push(pattern);
    for (const file of files) matched.add(file);
  }
  const skipped: { path: string; reason: string }[] = [];
  const tracked = new Set<string>();
  if (matched.size > 0) {
    // snodo's git takes pathspecs literally (`*.json` is a file name), so a match is never re-globbed.
    const listed = await git(['ls-files', '-z', '--', ...matched], {
      cwd: repositoryRoot,
      readOnly: true,
    });
    for (const file of listed.stdout.split('\0')) if (file !== '') tracked.add(file);
  }
  const copied: string[] = [];
  for (const file of [...matched].sort()) {
    if (tracked.has(file)) {
      skipped.push({ path: file, reason: 'tracked by git; the workspace has its committed version' });
      continue;
    }
    const source = path.join(repositoryRoot, file);
    const stat = await fs.lstat(source);
    if (!stat.isFile()) {
      skipped.push({ path: file, reason: 'a symbolic link; only regular files are copied' });
      continue;
    }
    const target = path.join(workspacePath, file);
    // A directory on either side that is a link (a committed `config -> /etc`) would carry the copy out.
    if (!isPathInside(repositoryRoot, source) || !isPathInside(workspacePath, path.dirname(target))) {
      skipped.push({
        path: file,
        reason: 'a directory on its path is a symbolic link out of the repository',
      });
      continue;
    }
    await fs.mkdir(path.dirname(target), { recursive: true });
    // NOTE: a target that is a link (committed as one) would be written through; remove it first.
    await fs.rm(target, { force: true });
    await fs.copyFile(source, target);
    await fs.chmod(target, stat.mode & 0o777);
    copied.push(file);
  }
  return { copied, unmatched, skipped };
}
