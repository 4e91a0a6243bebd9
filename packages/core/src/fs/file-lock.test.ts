import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireFileLock, withFileLock } from './file-lock.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'snodo-lock-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe('file lock', () => {
  it('serialises critical sections', async () => {
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
    expect(existsSync(lockPath)).toBe(false);
  });

  it('breaks a lock left by a process that is gone', async () => {
    const lockPath = join(directory, 'stale.lock');
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid as number;
    writeFileSync(lockPath, `${deadPid}\n2020-01-01T00:00:00.000Z\n`);
    const lock = await acquireFileLock(lockPath, { timeoutMs: 1_000 });
    lock.release();
    expect(existsSync(lockPath)).toBe(false);
  });

  it('times out with a message naming what the lock protects when the holder is alive', async () => {
    const lockPath = join(directory, 'held.lock');
    writeFileSync(lockPath, `${process.ppid}\n`);
    await expect(acquireFileLock(lockPath, { timeoutMs: 50, purpose: 'merges into trunk' })).rejects.toThrow(
      /merges into trunk/,
    );
  });
});
