import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliFixture, createCliFixture } from '../../testing/cli-fixture.js';

// Issue 13, first contact: on a real JavaScript package whose tests need installed dependencies, `snodo
// init` then `snodo run --mock` lands — setup installed the dependencies in the job's workspace, the tests
// gate ran them and passed, and nothing setup installed reached the merged change. And a repository without
// tests lands too, saying "no tests ran" instead of escalating.

let fixture: CliFixture | undefined;
afterEach(() => fixture?.cleanup());

/**
 * A package like a real one: its `test` script runs `fake-mocha`, a devDependency packed into a local
 * tarball and pinned in package-lock.json, so `npm ci --prefer-offline` installs it without a network. No
 * .gitignore, so an unprepared workspace says `fake-mocha: not found` and a careless commit takes
 * node_modules with it.
 */
function javascriptPackage(target: CliFixture): void {
  const scratch = mkdtempSync(join(tmpdir(), 'snodo-fake-mocha-'));
  try {
    mkdirSync(join(scratch, 'bin'));
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'fake-mocha', version: '1.0.0', bin: { 'fake-mocha': 'bin/fake-mocha.js' } }),
    );
    writeFileSync(join(scratch, 'bin', 'fake-mocha.js'), '#!/usr/bin/env node\nconsole.log("3 passing");\n', {
      mode: 0o755,
    });
    mkdirSync(join(target.root, 'vendor'));
    execFileSync('npm', ['pack', '--silent', '--pack-destination', join(target.root, 'vendor')], {
      cwd: scratch,
      env: { ...process.env, npm_config_cache: join(scratch, 'cache') },
      stdio: 'ignore',
    });
    target.write(
      'package.json',
      JSON.stringify({
        name: 'sample',
        version: '1.0.0',
        scripts: { test: 'fake-mocha' },
        devDependencies: { 'fake-mocha': 'file:vendor/fake-mocha-1.0.0.tgz' },
      }),
    );
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--package-lock-only'], {
      cwd: target.root,
      env: { ...process.env, npm_config_cache: join(scratch, 'cache') },
      stdio: 'ignore',
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  target.commitAll('an npm package with a locked dependency');
}

function auditEvents(target: CliFixture): { type: string; data: Record<string, unknown> }[] {
  return readFileSync(join(target.root, '.snodo', 'audit.log'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
}

describe('first contact with a real repository', { timeout: 180_000 }, () => {
  it('a JavaScript package whose tests need installed dependencies lands: setup ran, tests ran and passed', async () => {
    fixture = createCliFixture({ protocol: false });
    javascriptPackage(fixture);
    const init = await fixture.snodo(['init']);
    expect(init.exitCode, init.all).toBe(0);
    fixture.commitAll('Add snodo protocol');

    const run = await fixture.snodo(['run', 'Add a CONTRIBUTING.md with setup steps', '--mock']);
    expect(run.exitCode, run.all).toBe(0);
    expect(run.all).not.toContain('not found');

    const events = auditEvents(fixture);
    const setup = events.find((event) => event.type === 'workspace-setup');
    expect(setup?.data).toMatchObject({
      command: 'npm ci --prefer-offline --no-audit --no-fund',
      outcome: 'passed',
      exit_code: 0,
    });
    const tests = events.find((event) => event.type === 'gate-verdict' && event.data.gate_id === 'tests');
    expect(tests?.data).toMatchObject({ severity: 'pass', error: false });
    expect(String(tests?.data.justification)).toContain('3 passing');
    // Setup's node_modules stayed in the job's workspace: not in the merged change, not in the checkout.
    expect(fixture.git(['ls-tree', '-r', '--name-only', 'HEAD'])).not.toContain('node_modules');
    expect(existsSync(join(fixture.root, 'node_modules'))).toBe(false);
  });

  it('a repository without tests lands with "no tests ran" under the default unanimous policy', async () => {
    fixture = createCliFixture({ protocol: false });
    expect((await fixture.snodo(['init'])).exitCode).toBe(0);
    fixture.commitAll('Add snodo protocol');

    const run = await fixture.snodo(['run', 'Add a CONTRIBUTING.md with setup steps', '--mock']);
    expect(run.exitCode, run.all).toBe(0);
    expect(run.stdout).toContain('no tests ran');
    expect(auditEvents(fixture).some((event) => event.type === 'workspace-setup')).toBe(false);
  });
});
