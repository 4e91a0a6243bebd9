import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { requireBuiltBinary } from './testing/cli-fixture.js';

const script = join(import.meta.dirname, '..', '..', '..', 'scripts', 'quickstart.sh');

// The README's first command, minus the install and build this test run already did: the sample
// repository, `snodo init`, a --mock run, `snodo meta`, `snodo audit verify`, on a machine without a git
// identity.
describe('scripts/quickstart.sh', () => {
  let directory: string | undefined;
  afterEach(() => {
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  });

  it('runs the offline walkthrough end to end in a temporary directory', async () => {
    requireBuiltBinary();
    directory = mkdtempSync(join(tmpdir(), 'snodo-quickstart-test-'));
    const home = join(directory, 'home');
    mkdirSync(home);
    writeFileSync(join(home, '.gitconfig'), '');
    const result = await execa('bash', [script], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        TMPDIR: directory,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
        LANG: 'C.UTF-8',
        SNODO_QUICKSTART_SKIP_BUILD: '1',
      },
      extendEnv: false,
      reject: false,
      all: true,
      timeout: 120_000,
    });
    expect(result.exitCode, result.all).toBe(0);
    expect(result.stdout).toMatch(/wrote \.snodo\/protocol\.yml \(template solo\)/);
    expect(result.stdout).toMatch(/snodo j_[a-z0-9]+: merged into main/);
    expect(result.stdout).toMatch(/tests\s+post-execute\s+1\s+pass/);
    expect(result.stdout).toMatch(/landing\s+[0-9a-f]{10}\s+merged/);
    expect(result.stdout).toMatch(/\.snodo\/audit\.log: intact/);
    expect(result.stdout).toContain(`alias snodo='SNODO_HOME=${directory}`);
  });
});
