import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProcessRunning, waitUntilGone } from '../testing/process-liveness.js';
import { killTaggedProcesses, PROCESS_TAG_VARIABLE } from './kill-tagged-processes.js';
import { runSupervisedProcess } from './run-supervised-process.js';
import { startSupervisedProcess } from './start-supervised-process.js';

let directory: string;
const leftovers: number[] = [];
beforeEach(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'snodo-supervisor-'));
});
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  rmSync(directory, { recursive: true, force: true });
});

/**
 * A shell function: `left <pid>` succeeds once that process runs `sleep` as the leader of its own group,
 * so the test's command exits only after its grandchild really left the group (no race with the kill).
 */
const LEFT_THE_GROUP = `left() { set -- $(cat /proc/$1/stat 2>/dev/null) ; [ "$2" = "(sleep)" ] && [ "$5" = "$1" ]; }`;

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const readPid = (name: string) => Number(readFileSync(path.join(directory, name), 'utf8'));

/** Runs `script` with sh in the test directory, output collected. */
function sh(script: string, extra: { timeoutMs?: number; killGraceMs?: number } = {}) {
  let output = '';
  return {
    options: {
      file: '/bin/sh',
      args: ['-c', script],
      cwd: directory,
      env,
      killGraceMs: extra.killGraceMs ?? 300,
      ...(extra.timeoutMs === undefined ? {} : { timeoutMs: extra.timeoutMs }),
      onOutput: (_stream: 'stdout' | 'stderr', chunk: Buffer) => {
        output += chunk.toString('utf8');
      },
    },
    output: () => output,
  };
}

describe.skipIf(process.platform !== 'linux')('the supervisor’s orphan sweep (unsandboxed)', () => {
  it('kills a setsid grandchild that carries the tag, and leaves a process without the tag alone', async () => {
    const run = sh(
      `${LEFT_THE_GROUP}
       setsid sleep 300 >/dev/null 2>&1 & tagged=$!; echo $tagged > tagged.pid
       env -u ${PROCESS_TAG_VARIABLE} setsid sleep 300 >/dev/null 2>&1 & untagged=$!; echo $untagged > untagged.pid
       until left $tagged && left $untagged; do sleep 0.02; done
       echo "tag=$${PROCESS_TAG_VARIABLE}"`,
    );
    const outcome = await runSupervisedProcess(run.options);

    const tagged = readPid('tagged.pid');
    const untagged = readPid('untagged.pid');
    leftovers.push(tagged, untagged);
    expect(outcome).toMatchObject({ exitCode: 0, stoppedBy: undefined, orphansKilled: 1 });
    expect(run.output()).toMatch(/^tag=[0-9a-f]{32}\n$/);
    expect(await waitUntilGone(tagged)).toBe(true);
    expect(isProcessRunning(untagged)).toBe(true);
  });

  it('kills a grandchild that stayed in the group with the group, and does not count it as escaped', async () => {
    const run = sh('sleep 300 >/dev/null 2>&1 & echo $! > child.pid');
    const outcome = await runSupervisedProcess(run.options);
    const child = readPid('child.pid');
    leftovers.push(child);
    expect(outcome).toMatchObject({ exitCode: 0, orphansKilled: 0 });
    expect(await waitUntilGone(child)).toBe(true);
  });

  it('gives each process its own tag, and killTaggedProcesses finds what a crashed snodo left behind', async () => {
    const run = sh('setsid sleep 300 >/dev/null 2>&1 & echo $! > orphan.pid; sleep 300');
    const supervised = await startSupervisedProcess(run.options);
    const other = await startSupervisedProcess(sh('sleep 300').options);
    expect(supervised.tag).toMatch(/^[0-9a-f]{32}$/);
    expect(other.tag).not.toBe(supervised.tag);

    const until = Date.now() + 5000;
    while (Date.now() < until) {
      try {
        readPid('orphan.pid');
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    const orphan = readPid('orphan.pid');
    leftovers.push(orphan);
    // What core does on the next start with the tag it recorded: the leader (and its sleep) and the orphan.
    expect(killTaggedProcesses(supervised.tag)).toBeGreaterThanOrEqual(2);
    expect(await waitUntilGone(orphan)).toBe(true);
    expect((await supervised.exited).signal).toBe('SIGKILL');
    expect(isProcessRunning(other.pid ?? 0)).toBe(true);
    expect(await other.stop()).toMatchObject({ stoppedBy: 'requested', signal: 'SIGTERM' });
  });

  it('refuses something that is not a tag instead of matching half the machine', () => {
    expect(() => killTaggedProcesses('')).toThrow(/not a process tag/);
    expect(() => killTaggedProcesses('abc')).toThrow(/32 lowercase hex digits/);
  });
});

describe('startSupervisedProcess', () => {
  it('runs without any limit until asked to stop, then reports the stop as requested', async () => {
    const run = sh('echo ready; exec sleep 300');
    const supervised = await startSupervisedProcess(run.options);
    const until = Date.now() + 5000;
    while (!run.output().includes('ready') && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const outcome = await supervised.stop();
    expect(outcome).toMatchObject({ stoppedBy: 'requested', signal: 'SIGTERM', spawnError: undefined });
    expect(await supervised.stop('abort')).toBe(outcome);
    expect(await waitUntilGone(supervised.pid ?? 0)).toBe(true);
  });

  it('reports a command that cannot start, naming it', async () => {
    const supervised = await startSupervisedProcess({
      ...sh('').options,
      file: path.join(directory, 'no-such-program'),
    });
    expect(supervised.pid).toBeUndefined();
    expect((await supervised.exited).spawnError).toMatchObject({
      code: 'ENOENT',
      file: path.join(directory, 'no-such-program'),
    });
  });

  it('stops at the wall-clock limit and SIGKILLs a group that ignores SIGTERM', async () => {
    const run = sh(`trap '' TERM; sleep 300 & echo $! > child.pid; wait`, { timeoutMs: 500 });
    const outcome = await runSupervisedProcess(run.options);
    expect(outcome.stoppedBy).toBe('wall-clock');
    expect(await waitUntilGone(readPid('child.pid'))).toBe(true);
  }, 15_000);
});
