import { spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  lutimesSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLockTimeoutError } from './errors/audit-lock-timeout-error.js';
import { withLockFile } from './lock-file.js';
import { useTemporaryDirectory } from './testing/temporary-directory.js';

const options = { timeoutMs: 2_000, staleMs: 30_000 };
const children: ReturnType<typeof spawn>[] = [];

/** Lock content in the format `withLockFile` writes: pid, thread, epoch ms in base 36, nonce. */
function lockContent(pid: number, thread = 0): string {
  return `${pid} ${thread} ${Date.now().toString(36)} feedfacefeedface`;
}

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

function liveChild(): ReturnType<typeof spawn> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
  children.push(child);
  return child;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('withLockFile', () => {
  const directory = useTemporaryDirectory();
  const lockPath = (): string => join(directory(), 'audit.log.lock');

  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  it('holds the lock (pid and timestamp inside) during the section and removes it after', async () => {
    const before = Date.now();
    // The lock is a symlink whose target is its content: both are created in one atomic step.
    const seen = await withLockFile(lockPath(), options, () => {
      expect(lstatSync(lockPath()).isSymbolicLink()).toBe(true);
      return readlinkSync(lockPath()).split(' ');
    });
    expect(Number(seen[0])).toBe(process.pid);
    expect(Number.parseInt(seen[2]!, 36)).toBeGreaterThanOrEqual(before);
    expect(existsSync(lockPath())).toBe(false);
  });

  it('releases the lock when the section throws', async () => {
    await expect(
      withLockFile(lockPath(), options, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(lockPath())).toBe(false);
  });

  it('breaks a lock left by a process that died holding it (symlink lock, and a fallback lock file)', async () => {
    symlinkSync(lockContent(await deadPid()), lockPath());
    expect(await withLockFile(lockPath(), { ...options, timeoutMs: 100 }, () => 'ran')).toBe('ran');
    expect(existsSync(lockPath())).toBe(false);
    writeFileSync(lockPath(), `${lockContent(await deadPid())}\n`);
    expect(await withLockFile(lockPath(), { ...options, timeoutMs: 100 }, () => 'ran')).toBe('ran');
    expect(existsSync(lockPath())).toBe(false);
  });

  it('breaks a leftover lock naming this very process and thread (a previous process with our pid)', async () => {
    symlinkSync(lockContent(process.pid, threadId), lockPath());
    expect(await withLockFile(lockPath(), { ...options, timeoutMs: 100 }, () => 'ran')).toBe('ran');
  });

  it('waits for a live holder and times out with a typed error naming it, leaving its lock alone', async () => {
    const holder = liveChild();
    const content = lockContent(holder.pid!);
    symlinkSync(content, lockPath());
    const error = await failure(withLockFile(lockPath(), { ...options, timeoutMs: 150 }, () => 'ran'));
    expect(AuditLockTimeoutError.isInstance(error)).toBe(true);
    expect((error as AuditLockTimeoutError).holderPid).toBe(holder.pid);
    expect((error as Error).message).toContain(`process ${holder.pid}`);
    expect(readlinkSync(lockPath())).toBe(content);
  });

  it("breaks a live holder's lock once it is older than the stale threshold", async () => {
    const holder = liveChild();
    symlinkSync(lockContent(holder.pid!), lockPath());
    const old = new Date(Date.now() - 60_000);
    lutimesSync(lockPath(), old, old);
    expect(await withLockFile(lockPath(), { timeoutMs: 1_000, staleMs: 30_000 }, () => 'ran')).toBe('ran');
  });

  it('treats an empty fallback lock file (holder between create and write) as held for a short grace only', async () => {
    writeFileSync(lockPath(), '');
    const error = await failure(withLockFile(lockPath(), { ...options, timeoutMs: 100 }, () => 'ran'));
    expect(AuditLockTimeoutError.isInstance(error)).toBe(true);
    expect(readFileSync(lockPath(), 'utf8')).toBe('');
    const aFewSecondsAgo = new Date(Date.now() - 5_000);
    utimesSync(lockPath(), aFewSecondsAgo, aFewSecondsAgo);
    expect(await withLockFile(lockPath(), options, () => 'ran')).toBe('ran');
  });
});
