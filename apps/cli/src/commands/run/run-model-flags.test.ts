import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliFixture, createCliFixture } from '../../testing/cli-fixture.js';

describe('snodo run -m, given more than once', () => {
  let fixture: CliFixture;
  beforeAll(() => {
    fixture = createCliFixture();
  });
  afterAll(() => fixture.cleanup());

  /** Runs and checks that nothing was created: no job, no branch besides main. */
  async function refused(args: readonly string[]) {
    const run = await fixture.snodo(['run', 'Add a file', ...args]);
    expect(run.exitCode, run.all).toBe(2);
    expect(fixture.git(['branch', '--list', '--format=%(refname:short)'])).toBe('main');
    const jobs = join(fixture.root, '.snodo', 'jobs');
    expect(existsSync(jobs) ? readdirSync(jobs) : []).toEqual([]);
    return run.stderr;
  }

  it('refuses two judging models, naming both (commander kept the last one silently)', async () => {
    const stderr = await refused(['--mock', '-m', 'mock/pass', '-m', 'mock/warn']);
    expect(stderr).toContain('two judging models (plain provider/model): mock/pass and mock/warn');
  });

  it('refuses two coder models, naming both', async () => {
    const stderr = await refused(['-m', 'opencode-cli/openai/gpt-4o', '-m', 'codex/gpt-5']);
    expect(stderr).toContain('two coder models');
    expect(stderr).toContain('opencode-cli/openai/gpt-4o and codex/gpt-5');
  });

  it('refuses three', async () => {
    const stderr = await refused(['-m', 'mock/pass', '-m', 'codex/gpt-5', '-m', 'mock/warn']);
    expect(stderr).toContain('-m was given 3 times');
  });

  it('still takes one -m as before', async () => {
    const run = await fixture.snodo(['run', 'Add a file', '--mock', '-m', 'mock/pass', '--dry-run']);
    expect(run.exitCode, run.all).toBe(0);
    expect(run.stdout).toMatch(/judging model\s+mock\/pass\s+\(-m\)|judging model\s+mock\/pass/);
  });

  it('gives each of two -m its role: the plan shows the judging model and the namespaced coder model', async () => {
    const run = await fixture.snodo([
      'run',
      'Add a file',
      '-m',
      'mock/pass',
      '-m',
      'codex/gpt-5',
      '--dry-run',
    ]);
    expect(run.stdout, run.all).toMatch(/judging model\s+mock\/pass/);
    expect(run.stdout).toMatch(/coder\s+Codex \(codex/);
    expect(run.stdout).toMatch(/coder model\s+gpt-5\s+\(-m, namespaced/);
  });
});
