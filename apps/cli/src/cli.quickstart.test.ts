import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runResultJsonSchema } from './json/run-result-json-schema.js';
import { type CliFixture, createCliFixture } from './testing/cli-fixture.js';

// The README's Quickstart, through the built binary: init, commit, an offline run, meta, audit verify.
describe('the Quickstart scenario', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('initialises, runs a --mock task end to end, and shows meta and an intact audit log', async () => {
    fixture = createCliFixture({ protocol: false });
    fixture.write(
      'package.json',
      `${JSON.stringify({ name: 'demo', private: true, scripts: { test: 'node --test' } }, null, 2)}\n`,
    );
    fixture.write('test/sum.test.mjs', "import test from 'node:test';\ntest('adds', () => {});\n");
    fixture.commitAll('sample project');

    const init = await fixture.snodo(['init']);
    expect(init.exitCode, init.all).toBe(0);
    expect(init.stdout).toContain('wrote .snodo/protocol.yml');
    expect(init.stdout).toContain('snodo run');
    fixture.commitAll('Add snodo protocol');

    const run = await fixture.snodo(['run', 'Add a CONTRIBUTING.md with setup steps', '--mock']);
    expect(run.exitCode, run.all).toBe(0);
    const jobId = /snodo (j_[a-z0-9]+): merged into main/.exec(run.stdout)?.[1];
    expect(jobId, run.stdout).toBeDefined();
    expect(run.stdout).toContain('Mock coder');
    expect(run.stdout).toMatch(/tests\s+post-execute\s+1\s+pass/);
    expect(run.stderr).toContain(`[snodo] job ${jobId}`);
    expect(run.stderr).toContain('[snodo] stage execute (attempt 1, Mock coder)…');

    // The change landed on main and the main checkout is clean: snodo's runtime files are excluded.
    expect(fixture.git(['log', '-1', '--format=%s'])).toContain(`snodo(${jobId})`);
    expect(fixture.git(['status', '--porcelain'])).toBe('');
    expect(readFileSync(join(fixture.root, `snodo-mock/${jobId}.md`), 'utf8')).toContain('CONTRIBUTING');

    const meta = await fixture.snodo(['meta', jobId ?? '']);
    expect(meta.exitCode, meta.all).toBe(0);
    expect(meta.stdout).toContain('Add a CONTRIBUTING.md with setup steps');
    expect(meta.stdout).toMatch(/judging model\s+mock\/pass \(--mock\)/);
    expect(meta.stdout).toMatch(/stages\s+classify \S+, resolve/);
    expect(meta.stdout).toMatch(/landing\s+[0-9a-f]{10}\s+merged/);

    const verify = await fixture.snodo(['audit', 'verify']);
    expect(verify.exitCode, verify.all).toBe(0);
    expect(verify.stdout).toMatch(/intact — \d+ events/);
  });

  it('prints one JSON document on stdout with --json, valid against the run result schema', async () => {
    fixture = createCliFixture();
    const run = await fixture.snodo(['run', 'Add a changelog entry', '--mock', '--json']);
    expect(run.exitCode, run.all).toBe(0);
    const result = runResultJsonSchema.parse(JSON.parse(run.stdout));
    expect(result.status).toBe('done');
    expect(result.outcome).toBe('merged');
    expect(result.mergeCommit).toBe(fixture.git(['rev-parse', 'main']));
    expect(result.verdicts.map((verdict) => verdict.gateId)).toEqual(
      expect.arrayContaining(['task-review', 'security', 'tests']),
    );
  });
});
