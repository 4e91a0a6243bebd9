import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from './probe-sandbox.js';

let directory: string;
beforeAll(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'snodo-probe-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A stand-in `bwrap` that counts its starts and fails the way a kernel without user namespaces does. */
function writeFailingBwrap(name: string, stderr: string): string {
  const file = path.join(directory, name);
  writeFileSync(file, `#!/bin/sh\necho started >> '${file}.starts'\necho '${stderr}' >&2\nexit 1\n`);
  chmodSync(file, 0o755);
  return file;
}

const linuxOnly = process.platform !== 'linux';

describe.skipIf(linuxOnly)('probeSandbox', () => {
  it('reports bubblewrap that is not installed, with the install command', async () => {
    const probe = await probeSandbox({ pathEnvironment: directory });
    expect(probe.available).toBe(false);
    if (probe.available) return;
    expect(probe.reason).toBe('bubblewrap is not installed: no `bwrap` executable on PATH');
    expect(probe.fix).toMatch(/(apt-get|dnf|pacman)[^\n]*install[^\n]*bubblewrap|pacman -S bubblewrap/);
  });

  it('reports a configured path with nothing there', async () => {
    const probe = await probeSandbox({ executable: path.join(directory, 'no-bwrap') });
    expect(probe).toMatchObject({ available: false });
    expect(probe.available === false && probe.reason).toContain(`configured path ${directory}/no-bwrap`);
  });

  it('starts bwrap for real and reports its own stderr when it cannot create a sandbox, once per process', async () => {
    const fake = writeFailingBwrap(
      'bwrap-no-userns',
      'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.',
    );
    const first = await probeSandbox({ executable: fake });
    const second = await probeSandbox({ executable: fake });

    expect(first.available).toBe(false);
    if (first.available) return;
    expect(first.reason).toContain(
      `bubblewrap at ${fake} cannot start a sandbox here: it exited with code 1`,
    );
    expect(first.reason).toContain('No permissions to creating new namespace');
    expect(first.fix).toMatch(/namespaces|sandbox: off/);
    expect(second).toBe(first);
    expect(readFileSync(`${fake}.starts`, 'utf8')).toBe('started\n');
  });

  const real = existsSync('/usr/bin/bwrap');
  it.skipIf(!real)(
    'finds the real bubblewrap on PATH and reports it working (skipped: no /usr/bin/bwrap)',
    async () => {
      const probe = await probeSandbox({ pathEnvironment: '/usr/bin:/bin', includeVersion: true });
      expect(probe).toMatchObject({ available: true, executable: '/usr/bin/bwrap' });
      expect(probe.available && probe.version).toMatch(/^\d+\.\d+/);
    },
  );
});
