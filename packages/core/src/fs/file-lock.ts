import { randomUUID } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive } from '../jobs/process-identity.js';
import { LockTimeoutError } from './lock-timeout-error.js';

/** A lock file that stays empty or unreadable this long was left by a process that died while writing it. */
const unreadableStaleMs = 30_000;

/** What a lock file holds: who took it, and a token so only its owner ever removes it. */
interface LockContent {
  readonly pid: number;
  readonly hostname: string;
  readonly owner: string;
  readonly token: string;
  readonly acquiredAt: string;
}

/** How long to wait for a lock, and what to say about it. */
export interface FileLockOptions {
  /** Give up after this long, in milliseconds. Default 30 s. */
  readonly timeoutMs?: number;
  /** How often to look again while waiting (jittered). Default 20 ms. */
  readonly pollMs?: number;
  /** What the lock protects, for the timeout message ("landing into this repository"). */
  readonly purpose?: string;
  /** Who takes it (`job j_…`), written into the file so a waiting user sees who holds it. */
  readonly owner?: string;
}

/**
 * Runs `work` while holding an exclusive cross-process lock on `lockPath`, and releases it however `work`
 * ends. The lock is a file created with O_EXCL holding the holder's pid, host and a token; a lock whose pid
 * is gone on this host is stale and broken, so a crash never blocks the next run forever. Waiting is
 * bounded: after `timeoutMs` a `LockTimeoutError` names the holder and the file.
 *
 * NOTE: O_EXCL creation is atomic on local POSIX filesystems, not on every network filesystem.
 */
export async function withFileLock<T>(
  lockPath: string,
  work: () => Promise<T> | T,
  options: FileLockOptions = {},
): Promise<T> {
  const token = await acquire(lockPath, options);
  try {
    return await work();
  } finally {
    await release(lockPath, token);
  }
}

async function acquire(lockPath: string, options: FileLockOptions): Promise<string> {
  const token = randomUUID();
  const content: LockContent = {
    pid: process.pid,
    hostname: os.hostname(),
    owner: options.owner ?? '',
    token,
    acquiredAt: new Date().toISOString(),
  };
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const pollMs = options.pollMs ?? 20;
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
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await inspectHolder(lockPath);
    if (holder.stale) {
      await breakStaleLock(lockPath, holder.inode);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = holder.content
        ? `snodo process ${holder.content.pid} on ${holder.content.hostname}${holder.content.owner ? ` (${holder.content.owner})` : ''}, since ${holder.content.acquiredAt}`
        : 'another process';
      throw new LockTimeoutError({ lockPath, purpose: options.purpose ?? 'snodo operation', holder: who });
    }
    await sleep(pollMs + Math.floor(Math.random() * pollMs));
  }
}

interface HolderInspection {
  readonly stale: boolean;
  readonly inode?: number;
  readonly content?: LockContent;
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
    const content = parseContent(await handle.readFile('utf8'));
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
 * Removes a stale lock without ever removing a fresh one that replaced it in the meantime.
 * NOTE: two waiters may both judge the same lock stale. Renaming it to a unique name is atomic, so only one
 * rename gets the stale file; if a rename catches a fresh lock instead (its inode differs from the one
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

function parseContent(text: string): LockContent | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockContent>;
    if (
      typeof value.pid === 'number' &&
      typeof value.hostname === 'string' &&
      typeof value.token === 'string'
    ) {
      return {
        pid: value.pid,
        hostname: value.hostname,
        owner: String(value.owner ?? ''),
        token: value.token,
        acquiredAt: String(value.acquiredAt ?? ''),
      };
    }
  } catch {
    // Empty or partly written: the caller decides by age.
  }
  return undefined;
}
