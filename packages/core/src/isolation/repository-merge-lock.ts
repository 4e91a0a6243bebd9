import { randomUUID } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { IsolationFailedError } from './isolation-failed-error.js';

/** The merge lock's file name inside the repository's git common directory. */
export const mergeLockFileName = 'snodo-merge.lock';

/** The lock serialising snodo's `git worktree prune` + `add` in one repository. */
export const worktreeLockFileName = 'snodo-worktree.lock';

/** A lock file that stays empty or unreadable this long was left by a process that died while writing it. */
const unreadableStaleMs = 30_000;

/** What a merge lock file holds. */
interface MergeLockContent {
  readonly pid: number;
  readonly hostname: string;
  readonly jobId: string;
  readonly token: string;
  readonly acquiredAt: string;
}

/** Options of `withRepositoryMergeLock`. */
export interface RepositoryMergeLockOptions {
  /** The repository's git common directory (shared by all worktrees), where the lock file lives. */
  readonly gitCommonDirectory: string;
  /** The job taking the lock, written into the file so a waiting user sees who holds it. */
  readonly jobId: string;
  /** How long to wait for another landing before giving up. Default 120 s. */
  readonly timeoutMs?: number;
  /** How often to look again while waiting. Default 50 ms. */
  readonly pollMs?: number;
  /** Which lock: the merge lock (default) or another per-repository lock such as `worktreeLockFileName`. */
  readonly fileName?: string;
  /** What the lock protects, for the timeout message. Default "landing into this repository". */
  readonly purpose?: string;
}

/**
 * Run `action` while holding the repository's merge lock (or another per-repository lock named by
 * `fileName`), so landings into one repository happen one at a time across processes. The lock is a file created with O_EXCL holding the owner's pid; a lock whose pid
 * is dead on this host is stale and broken. Waiting is bounded: after `timeoutMs` an `IsolationFailedError`
 * names the holder and the file to delete if no snodo is running.
 */
export async function withRepositoryMergeLock<T>(
  options: RepositoryMergeLockOptions,
  action: () => Promise<T>,
): Promise<T> {
  const lockPath = path.join(options.gitCommonDirectory, options.fileName ?? mergeLockFileName);
  const token = await acquire(lockPath, options);
  try {
    return await action();
  } finally {
    await release(lockPath, token);
  }
}

async function acquire(lockPath: string, options: RepositoryMergeLockOptions): Promise<string> {
  const token = randomUUID();
  const content: MergeLockContent = {
    pid: process.pid,
    hostname: os.hostname(),
    jobId: options.jobId,
    token,
    acquiredAt: new Date().toISOString(),
  };
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  const pollMs = options.pollMs ?? 50;
  for (;;) {
    try {
      const handle = await fs.open(
        lockPath,
        constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY,
        0o644,
      );
      try {
        await handle.writeFile(`${JSON.stringify(content)}\n`);
      } finally {
        await handle.close();
      }
      return token;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new IsolationFailedError({
          operation: 'land',
          message: `Could not create the merge lock ${lockPath}: ${(error as Error).message}`,
          cause: error,
        });
      }
    }
    const holder = await inspectHolder(lockPath);
    if (holder.stale) {
      await breakStaleLock(lockPath, holder.inode);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = holder.content
        ? `snodo process ${holder.content.pid} on ${holder.content.hostname} (job ${holder.content.jobId}, since ${holder.content.acquiredAt})`
        : 'another process';
      throw new IsolationFailedError({
        operation: 'land',
        message:
          `Another ${options.purpose ?? 'landing into this repository'} is still running: ${who} holds ${lockPath}. ` +
          'Wait for it and try again, or delete that file if no snodo is running.',
      });
    }
    await sleep(pollMs + Math.floor(Math.random() * pollMs));
  }
}

interface HolderInspection {
  readonly stale: boolean;
  readonly inode?: number;
  readonly content?: MergeLockContent;
}

async function inspectHolder(lockPath: string): Promise<HolderInspection> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(lockPath, constants.O_RDONLY);
  } catch {
    // Released between our create attempt and now: not stale, just try again.
    return { stale: false };
  }
  try {
    const stat = await handle.stat();
    const text = await handle.readFile('utf8');
    const content = parseContent(text);
    if (content === undefined) {
      return { stale: Date.now() - stat.mtimeMs > unreadableStaleMs, inode: stat.ino };
    }
    const stale = content.hostname === os.hostname() && !isProcessAlive(content.pid);
    return { stale, inode: stat.ino, content };
  } finally {
    await handle.close();
  }
}

/**
 * Remove a stale lock without ever removing a fresh one that replaced it in the meantime.
 * NOTE: two waiters may both judge the same lock stale. Renaming it to a unique name is atomic, so only one
 * rename gets the stale file; if a rename catches a fresh lock instead (its inode differs from the one we
 * judged), it is linked back into place at once.
 */
async function breakStaleLock(lockPath: string, staleInode: number | undefined): Promise<void> {
  const aside = `${lockPath}.stale-${randomUUID()}`;
  try {
    await fs.rename(lockPath, aside);
  } catch {
    return;
  }
  const stat = await fs.stat(aside).catch(() => undefined);
  if (stat !== undefined && staleInode !== undefined && stat.ino !== staleInode) {
    await fs.link(aside, lockPath).catch(() => undefined);
  }
  await fs.rm(aside, { force: true });
}

async function release(lockPath: string, token: string): Promise<void> {
  const text = await fs.readFile(lockPath, 'utf8').catch(() => '');
  // Only delete the file if it is still ours: never another process's lock.
  if (parseContent(text)?.token === token) await fs.rm(lockPath, { force: true });
}

function parseContent(text: string): MergeLockContent | undefined {
  try {
    const value = JSON.parse(text) as Partial<MergeLockContent>;
    if (
      typeof value.pid === 'number' &&
      typeof value.hostname === 'string' &&
      typeof value.token === 'string'
    ) {
      return {
        pid: value.pid,
        hostname: value.hostname,
        jobId: String(value.jobId ?? ''),
        token: value.token,
        acquiredAt: String(value.acquiredAt ?? ''),
      };
    }
  } catch {
    // Empty or partly written: the caller decides by age.
  }
  return undefined;
}

/** `true` when a process with `pid` exists (EPERM means it exists but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
