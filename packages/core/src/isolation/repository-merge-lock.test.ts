import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isProcessAlive, readLockHolder } from '@snodo/foundation';
import { afterEach, describe, expect, it } from 'vitest';
import { IsolationFailedError } from './isolation-failed-error.js';
import { mergeLockFileName, withRepositoryMergeLock } from './repository-merge-lock.js';

const directories: string[] = [];
const temporaryDirectory = (): string => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'snodo-merge-lock-'));
  directories.push(directory);
  return directory;
};
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A pid that certainly belonged to a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid ?? 999_999;
}

const lockContent = (pid: number): string =>
  `${JSON.stringify({ pid, hostname: os.hostname(), jobId: 'j_other', token: 'theirs', acquiredAt: new Date().toISOString() })}\n`;

describe('withRepositoryMergeLock', () => {
  it('never lets two actions hold the lock at once and removes the file afterwards', async () => {
    const gitCommonDirectory = temporaryDirectory();
    let inside = 0;
    let maximum = 0;
    const order: number[] = [];
    await Promise.all(
      [1, 2, 3, 4].map((index) =>
        withRepositoryMergeLock({ gitCommonDirectory, jobId: `j_${index}`, pollMs: 5 }, async () => {
          inside++;
          maximum = Math.max(maximum, inside);
          await new Promise((resolve) => setTimeout(resolve, 20));
          order.push(index);
          inside--;
        }),
      ),
    );
    expect(maximum).toBe(1);
    expect(order.sort()).toEqual([1, 2, 3, 4]);
    expect(existsSync(path.join(gitCommonDirectory, mergeLockFileName))).toBe(false);
  });

  it('breaks a lock left by a process that died', async () => {
    const gitCommonDirectory = temporaryDirectory();
    const pid = deadPid();
    expect(isProcessAlive(pid)).toBe(false);
    writeFileSync(path.join(gitCommonDirectory, mergeLockFileName), lockContent(pid));
    const result = await withRepositoryMergeLock(
      { gitCommonDirectory, jobId: 'j_me', timeoutMs: 5_000 },
      // The foundation's lock is a symbolic link whose target is its content; read it the way snodo does.
      async () => readLockHolder(path.join(gitCommonDirectory, mergeLockFileName)),
    );
    expect(result).toMatchObject({ pid: process.pid, owner: 'job j_me' });
  });

  it('waits for a live holder in another process, then gives up with a message naming it', async () => {
    const gitCommonDirectory = temporaryDirectory();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const lockPath = path.join(gitCommonDirectory, mergeLockFileName);
      writeFileSync(lockPath, lockContent(holder.pid!));
      let ran = false;
      const error = await withRepositoryMergeLock(
        { gitCommonDirectory, jobId: 'j_me', timeoutMs: 300, pollMs: 20 },
        async () => {
          ran = true;
        },
      ).catch((caught) => caught);
      expect(ran).toBe(false);
      expect(IsolationFailedError.isInstance(error)).toBe(true);
      expect(error.message).toContain(`snodo process ${holder.pid}`);
      expect(error.message).toContain(lockPath);
      // The holder's lock is still there, untouched.
      expect(JSON.parse(readFileSync(lockPath, 'utf8')).token).toBe('theirs');

      // Once the holder dies, the same call gets through.
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
      await withRepositoryMergeLock(
        { gitCommonDirectory, jobId: 'j_me', timeoutMs: 5_000, pollMs: 20 },
        async () => {
          ran = true;
        },
      );
      expect(ran).toBe(true);
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
