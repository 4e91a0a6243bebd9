import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskListJsonSchema } from '../../json/job-json-schemas.js';
import { runResultJsonSchema } from '../../json/run-result-json-schema.js';
import { type CliFixture, createCliFixture } from '../../testing/cli-fixture.js';
import { loadedModules } from '../../testing/loaded-modules.js';

// `snodo task list`, `task show`, `logs` and `meta` only read jobs (issue 14): they neither open the audit
// log nor read config, and they load none of the pipeline's libraries, so they start fast however long the
// log grows. A job left `running` by a dead process is still reconciled (and audited) by the first of them.

/** The commands that only read, each with the job id to read. */
const READERS = (jobId: string): string[][] => [
  ['task', 'list'],
  ['task', 'show', jobId],
  ['logs', jobId],
  ['meta', jobId],
];

/** Libraries a command that only reads jobs must never load: schemas, YAML, the AI SDK, the log, the pipeline. */
const HEAVY_MODULES =
  /\/node_modules\/(zod|yaml|ai|@ai-sdk\/[^/]+|picomatch)\/|\/packages\/(audit|llm)\/|\/packages\/core\/src\/(pipeline|audit-trail|protocol)\//;

describe('commands that only read jobs', () => {
  let fixture: CliFixture;
  let jobId: string;
  beforeAll(async () => {
    fixture = createCliFixture();
    const run = await fixture.snodo(['run', 'Add a CONTRIBUTING.md', '--mock', '--json']);
    expect(run.exitCode, run.all).toBe(0);
    jobId = runResultJsonSchema.parse(JSON.parse(run.stdout)).jobId;
  });
  afterAll(() => fixture.cleanup());

  it('work with a corrupt audit log and a broken config.yml: they open neither', async () => {
    const log = join(fixture.root, '.snodo', 'audit.log');
    const intact = readFileSync(log);
    writeFileSync(log, 'this is not an audit log\n');
    fixture.writeConfig('llm: [unclosed\n');
    try {
      for (const args of READERS(jobId)) {
        const result = await fixture.snodo(args);
        expect(result.exitCode, `snodo ${args.join(' ')}: ${result.all}`).toBe(0);
        expect(result.all).not.toMatch(/audit|config\.yml/i);
      }
      const list = await fixture.snodo(['task', 'list']);
      expect(list.stdout).toContain(jobId);
      expect(list.stdout).toContain('Add a CONTRIBUTING.md');
      expect((await fixture.snodo(['meta', jobId])).stdout).toContain('merged');
      // The log is exactly as the test left it: nothing was appended or repaired.
      expect(readFileSync(log, 'utf8')).toBe('this is not an audit log\n');
    } finally {
      writeFileSync(log, intact);
      rmSync(join(fixture.snodoHome, 'config.yml'));
    }
  });

  it('still mark a job left running by a dead process interrupted, and audit it', async () => {
    const statePath = join(fixture.root, '.snodo', 'jobs', jobId, 'state.json');
    const finished = spawnSync(process.execPath, ['-e', '']);
    const state = JSON.parse(readFileSync(statePath, 'utf8'));
    state.status = 'running';
    state.process = { ...state.process, pid: finished.pid, hostname: hostname() };
    delete state.process.startTimeMs;
    writeFileSync(statePath, `${JSON.stringify(state, null, 2)}\n`);

    const list = await fixture.snodo(['task', 'list', '--json']);
    expect(list.exitCode, list.all).toBe(0);
    expect(taskListJsonSchema.parse(JSON.parse(list.stdout)).jobs).toEqual([
      expect.objectContaining({ jobId, status: 'interrupted' }),
    ]);
    const events = readFileSync(join(fixture.root, '.snodo', 'audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; job?: string });
    expect(events.at(-1)).toMatchObject({ type: 'job-interrupt', job: jobId });
    const verify = await fixture.snodo(['audit', 'verify']);
    expect(verify.exitCode, verify.all).toBe(0);
  });

  it('about one job, look at that job only: its dead process is reconciled, another job’s is left to `task list`', async () => {
    const second = await fixture.snodo(['run', 'Add a SECURITY.md', '--mock', '--json']);
    expect(second.exitCode, second.all).toBe(0);
    const otherId = runResultJsonSchema.parse(JSON.parse(second.stdout)).jobId;
    const finished = spawnSync(process.execPath, ['-e', '']);
    const leaveRunning = (id: string) => {
      const path = join(fixture.root, '.snodo', 'jobs', id, 'state.json');
      const state = JSON.parse(readFileSync(path, 'utf8'));
      state.status = 'running';
      state.process = { ...state.process, pid: finished.pid, hostname: hostname() };
      delete state.process.startTimeMs;
      writeFileSync(path, `${JSON.stringify(state, null, 2)}\n`);
    };
    const status = (id: string) =>
      JSON.parse(readFileSync(join(fixture.root, '.snodo', 'jobs', id, 'state.json'), 'utf8')).status;
    // A command about a healthy job reads no other job's state: `logs --follow` and `job wait` ask every
    // quarter second, and must not read a repository's whole history each time. `task list` finds the dead one.
    leaveRunning(jobId);
    for (const args of [
      ['meta', otherId],
      ['logs', otherId],
      ['task', 'show', otherId],
    ]) {
      const result = await fixture.snodo(args);
      expect(result.exitCode, `${args.join(' ')}: ${result.all}`).toBe(0);
      expect(status(jobId), args.join(' ')).toBe('running');
    }
    const list = await fixture.snodo(['task', 'list', '--json']);
    expect(taskListJsonSchema.parse(JSON.parse(list.stdout)).jobs).toContainEqual(
      expect.objectContaining({ jobId, status: 'interrupted' }),
    );

    // A command about a job its dead process left running reconciles it, and every other dead job with it.
    leaveRunning(jobId);
    leaveRunning(otherId);
    const show = await fixture.snodo(['task', 'show', otherId, '--json']);
    expect(show.exitCode, show.all).toBe(0);
    expect(JSON.parse(show.stdout).state.status).toBe('interrupted');
    expect(status(jobId)).toBe('interrupted');
    const verify = await fixture.snodo(['audit', 'verify']);
    expect(verify.exitCode, verify.all).toBe(0);
  });

  it('load no schema library, YAML parser, AI SDK, audit log or pipeline code (the built binary)', async () => {
    for (const args of [...READERS(jobId), ['config', 'path']]) {
      const { result, sources } = await loadedModules(fixture, args);
      expect(result.exitCode, result.all).toBe(0);
      // The recorder sees into the bundle: core's job files are in the list.
      expect(sources.some((source) => source.includes('/packages/core/src/jobs/'))).toBe(true);
      expect(
        sources.filter((source) => HEAVY_MODULES.test(source)),
        `snodo ${args.join(' ')}`,
      ).toEqual([]);
    }
  });
});
