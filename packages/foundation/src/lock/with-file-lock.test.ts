import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockTimeoutError } from '../errors.js';
import { hostId } from './lock-holder.js';
import { withFileLock } from './with-file-lock.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'snodo-foundation-lock-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

const workerPath = join(import.meta.dirname, '..', 'testing', 'lock-worker.ts');

function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid as number;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('withFileLock', () => {
  it('lets one process at a time in: 3 processes x 40 increments of one file lose none', {
    timeout: 60_000,
  }, async () => {
    const lockPath = join(directory, 'counter.lock');
    const counterPath = join(directory, 'counter');
    writeFileSync(counterPath, '0');
    const exits = await Promise.all(
      [1, 2, 3].map(
        () =>
          new Promise<number | null>((resolve, reject) => {
            const child = spawn(
              process.execPath,
              ['--import', 'tsx', workerPath, lockPath, counterPath, '40'],
              {
                stdio: ['ignore', 'ignore', 'inherit'],
              },
            );
            child.on('error', reject);
            child.on('exit', resolve);
          }),
      ),
    );
    expect(exits).toEqual([0, 0, 0]);
    expect(readFileSync(counterPath, 'utf8')).toBe('120');
    expect(readdirSync(directory).sort()).toEqual(['counter']);
  });

  it('writes pid, thread, time, token, host and owner into the lock, atomically as a symlink', async () => {
    const lockPath = join(directory, 'x.lock');
    const seen = await withFileLock(lockPath, () => readlinkSync(lockPath).split(' '), { owner: 'job j_1' });
    expect(seen.slice(0, 2)).toEqual([String(process.pid), String(threadId)]);
    expect(seen[4]).toBe(hostId());
    expect(seen.slice(5).join(' ')).toBe('job j_1');
    expect(existsSync(lockPath)).toBe(false);
  });

  it('never breaks the lock of a holder on another machine, however dead its pid looks here', async () => {
    const lockPath = join(directory, 'shared.lock');
    const content = `${deadPid()} 0 ${Date.now().toString(36)} feedfacefeedface ${hostId('elsewhere')}`;
    symlinkSync(content, lockPath);
    const error = await failure(withFileLock(lockPath, () => 'ran', { timeoutMs: 100, purpose: 'landing' }));
    expect(LockTimeoutError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^Another landing is still running: snodo process \d+ on another machine/,
    );
    expect(readlinkSync(lockPath)).toBe(content);
  });

  it('removes only its own lock: one that was replaced meanwhile is left to its holder', async () => {
    const lockPath = join(directory, 'x.lock');
    const foreign = `${process.ppid} 0 ${Date.now().toString(36)} 0123456789abcdef ${hostId()}`;
    await withFileLock(lockPath, async () => {
      unlinkSync(lockPath);
      symlinkSync(foreign, lockPath);
      // Held past the moment below which a release needs no check.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
    });
    expect(readlinkSync(lockPath)).toBe(foreign);
  });

  it('throws the caller’s error on timeout, with the holder it found', async () => {
    const lockPath = join(directory, 'x.lock');
    writeFileSync(
      lockPath,
      `${process.ppid} 0 ${Date.now().toString(36)} 0123456789abcdef ${hostId()} job j_2\n`,
    );
    const error = await failure(
      withFileLock(lockPath, () => 'ran', {
        timeoutMs: 50,
        timeoutError: ({ holder, purpose }) => new Error(`${purpose}: ${holder?.pid} ${holder?.owner}`),
      }),
    );
    expect((error as Error).message).toBe(`snodo operation: ${process.ppid} job j_2`);
  });
});
