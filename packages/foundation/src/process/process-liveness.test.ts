import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive, isSameProcessAlive, processStartTimeMs } from './process-liveness.js';

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe('process liveness', () => {
  it('tells a running process from one that exited, and refuses pids that cannot be processes', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(spawnSync(process.execPath, ['-e', '']).pid as number)).toBe(false);
    for (const pid of [0, -1, 1.5, Number.NaN]) expect(isProcessAlive(pid)).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')(
    'counts a zombie (dead, never reaped by its parent) as gone',
    async () => {
      // `sh` starts a sleeper, prints its pid, then becomes `sleep 600`, which never waits for children: the
      // killed sleeper stays a zombie as long as its parent lives.
      const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 600'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      children.push(parent);
      const pid = Number(
        await new Promise<string>((resolve) => parent.stdout!.once('data', (data) => resolve(String(data)))),
      );
      expect(isProcessAlive(pid)).toBe(true);
      process.kill(pid, 'SIGKILL');
      let state = '';
      for (let attempt = 0; attempt < 100 && state !== 'Z'; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.charAt(0) ?? '';
      }
      expect(state).toBe('Z');
      expect(isProcessAlive(pid)).toBe(false);
    },
  );

  it.skipIf(process.platform !== 'linux')('identifies a process by pid and start time (Linux)', () => {
    const started = processStartTimeMs(process.pid);
    expect(started).toBeGreaterThan(0);
    expect(isSameProcessAlive(process.pid, started)).toBe(true);
    // Another process that got this pid would have started at another time.
    expect(isSameProcessAlive(process.pid, (started as number) - 60_000)).toBe(false);
  });
});
