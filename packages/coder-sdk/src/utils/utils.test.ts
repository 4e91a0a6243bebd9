import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isProcessAlive } from '@snodo/foundation';
import { afterEach, describe, expect, it } from 'vitest';
import { probeExecutableVersion, signalGroup, withProbeEnvironment } from './index.js';

let directory: string | undefined;
afterEach(() => {
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

describe('@snodo/coder-sdk/utils', () => {
  it('probes a version in a throwaway home, which is gone afterwards, so the user’s home stays clean', async () => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'snodo-utils-'));
    const cli = path.join(directory, 'writes-home');
    writeFileSync(cli, '#!/bin/sh\necho state > "$HOME/state.json"\necho "writes-home 4.5.6"\n');
    chmodSync(cli, 0o755);
    let probeHome = '';
    const probe = await withProbeEnvironment(
      'writes-home',
      { PATH: '/usr/bin:/bin', HOME: directory },
      (home) => {
        probeHome = home;
        return { HOME: home };
      },
      (env) => probeExecutableVersion(cli, ['--version'], { env }),
    );
    expect(probe).toEqual({ version: '4.5.6', problem: undefined });
    expect(path.basename(probeHome)).toMatch(/^snodo-writes-home-probe-/);
    expect(existsSync(probeHome)).toBe(false);
    expect(existsSync(path.join(directory, 'state.json'))).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')(
    'signals a whole process group: the leader’s background child dies with it',
    async () => {
      directory = mkdtempSync(path.join(os.tmpdir(), 'snodo-utils-'));
      const childPidFile = path.join(directory, 'child.pid');
      const leader = spawn('sh', ['-c', `sleep 60 & echo $! > ${childPidFile}; wait`], {
        detached: true,
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => leader.once('exit', resolve));
      await expect.poll(() => existsSync(childPidFile)).toBe(true);
      await expect.poll(() => readFileSync(childPidFile, 'utf8').trim()).not.toBe('');
      const childPid = Number(readFileSync(childPidFile, 'utf8').trim());
      expect(isProcessAlive(childPid)).toBe(true);
      signalGroup(leader.pid ?? -1, 'SIGKILL');
      await exited;
      await expect.poll(() => isProcessAlive(childPid)).toBe(false);
      // A group that is already gone is fine.
      expect(() => signalGroup(leader.pid ?? -1, 'SIGKILL')).not.toThrow();
    },
  );
});
