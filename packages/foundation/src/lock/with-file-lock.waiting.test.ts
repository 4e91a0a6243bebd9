import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockTimeoutError } from '../errors.js';
import { withFileLock } from './with-file-lock.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'snodo-lock-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function lockContent(pid: number): string {
  return `${JSON.stringify({ pid, hostname: hostname(), owner: 'job j_other', token: 't', acquiredAt: '2020-01-01T00:00:00.000Z' })}\n`;
}

describe('file lock', () => {
  // Regression: all ten start in the same tick; the section's token used to be recorded one microtask after
  // the lock was made, and the others took that fresh lock of this very process for a leftover and broke it.
  it('serialises critical sections and leaves no file behind', async () => {
    const lockPath = join(directory, 'x.lock');
    let inside = 0;
    let maximum = 0;
    await Promise.all(
      Array.from({ length: 10 }, () =>
        withFileLock(lockPath, async () => {
          inside += 1;
          maximum = Math.max(maximum, inside);
          await new Promise((resolve) => setTimeout(resolve, 3));
          inside -= 1;
        }),
      ),
    );
    expect(maximum).toBe(1);
    expect(readdirSync(directory)).toEqual([]);
  });

  it('releases the lock when the work throws', async () => {
    const lockPath = join(directory, 'x.lock');
    await expect(withFileLock(lockPath, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(existsSync(lockPath)).toBe(false);
  });

  it('breaks a lock left by a process that is gone', async () => {
    const lockPath = join(directory, 'stale.lock');
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid as number;
    writeFileSync(lockPath, lockContent(deadPid));
    expect(await withFileLock(lockPath, () => 'ran', { timeoutMs: 1_000 })).toBe('ran');
    expect(readdirSync(directory)).toEqual([]);
  });

  it('times out naming the holder and what the lock protects when the holder is alive', async () => {
    const lockPath = join(directory, 'held.lock');
    writeFileSync(lockPath, lockContent(process.ppid));
    const attempt = withFileLock(lockPath, () => 'never', { timeoutMs: 50, purpose: 'landing into trunk' });
    await expect(attempt).rejects.toSatisfy(
      (error: unknown) =>
        LockTimeoutError.isInstance(error) &&
        /landing into trunk.*job j_other/.test((error as Error).message),
    );
    expect(existsSync(lockPath)).toBe(true);
  });

  it('says once, while it waits, who holds the lock and what it protects', async () => {
    const lockPath = join(directory, 'held.lock');
    writeFileSync(lockPath, lockContent(process.ppid));
    const waits: string[] = [];
    const attempt = withFileLock(lockPath, () => 'never', {
      timeoutMs: 300,
      waitNoticeMs: 20,
      purpose: 'landing into trunk',
      onWait: (wait) => waits.push(`${wait.purpose}: ${wait.holderText}`),
    });
    await expect(attempt).rejects.toSatisfy((error: unknown) => LockTimeoutError.isInstance(error));
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatch(
      new RegExp(`landing into trunk: snodo process ${process.ppid} \\(job j_other\\)`),
    );
  });

  it('says nothing about a lock it gets at once', async () => {
    const waits: unknown[] = [];
    await withFileLock(join(directory, 'free.lock'), () => 'ran', { onWait: (wait) => waits.push(wait) });
    expect(waits).toEqual([]);
  });
});
