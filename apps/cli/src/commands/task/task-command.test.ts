import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  abandonResultJsonSchema,
  jobDetailsJsonSchema,
  jobDiffJsonSchema,
  pruneResultsJsonSchema,
  taskListJsonSchema,
} from '../../json/job-json-schemas.js';
import { runResultJsonSchema } from '../../json/run-result-json-schema.js';
import { type CliFixture, createCliFixture, parseJson, TEST_PROTOCOL } from '../../testing/cli-fixture.js';
import { snodoInProcess } from '../../testing/in-process-cli.js';

/**
 * The test protocol whose pre-execute judge passes on its own model, so `-m mock/warn|blocker` halts the job
 * only after the coder ran, with a workspace and a branch to act on (a halt before execution keeps none).
 */
const JUDGED_AFTER_EXECUTION = TEST_PROTOCOL.replace(
  '  - validator_id: task-review\n',
  '  - validator_id: task-review\n    model: mock/pass\n',
);

/** Runs a --mock task with extra flags and returns its JSON result. */
async function runJob(fixture: CliFixture, task: string, flags: readonly string[]) {
  const run = await fixture.snodo(['run', task, '--mock', '--json', ...flags]);
  return { exitCode: run.exitCode, result: runResultJsonSchema.parse(JSON.parse(run.stdout)) };
}

// The runs, merges, rejections, abandons and prunes go through the built binary; the commands that only
// read a job (and the refusals, which change nothing) run in process (testing/in-process-cli.ts).
describe('snodo task', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('shows, diffs and merges a job kept on its branch (merge strategy none)', async () => {
    fixture = createCliFixture();
    const { exitCode, result } = await runJob(fixture, 'Add a kept file', ['--merge', 'none']);
    expect(exitCode).toBe(0);
    expect(result.outcome).toBe('branch_kept');
    const before = fixture.git(['rev-parse', 'main']);

    const show = await snodoInProcess(fixture, ['task', 'show', result.jobId]);
    expect(show.exitCode, show.all).toBe(0);
    expect(show.stdout).toContain(`snodo ${result.jobId}: done, kept on branch snodo/${result.jobId}`);
    expect(show.stdout).toContain(`snodo task merge ${result.jobId}`);
    const details = jobDetailsJsonSchema.parse(
      parseJson(await snodoInProcess(fixture, ['task', 'show', result.jobId, '--json'])),
    );
    expect(details.state.landing?.strategy).toBe('none');

    const diff = await snodoInProcess(fixture, ['task', 'diff', result.jobId]);
    expect(diff.exitCode, diff.all).toBe(0);
    expect(diff.stdout).toContain(`+++ b/snodo-mock/${result.jobId}.md`);
    expect(diff.stdout).toContain('+Add a kept file');
    const stat = await snodoInProcess(fixture, ['task', 'diff', result.jobId.slice(0, 6), '--stat']);
    expect(stat.stdout.trim()).toBe(`A\tsnodo-mock/${result.jobId}.md`);
    const diffJson = jobDiffJsonSchema.parse(
      parseJson(await snodoInProcess(fixture, ['task', 'diff', result.jobId, '--json'])),
    );
    expect(diffJson.baseCommit).toBe(before);

    const merge = await fixture.snodo(['task', 'merge', result.jobId]);
    expect(merge.exitCode, merge.all).toBe(0);
    expect(merge.stdout).toContain(`snodo ${result.jobId}: merged into main`);
    expect(fixture.git(['rev-parse', 'main'])).not.toBe(before);
    expect(existsSync(join(fixture.root, 'snodo-mock', `${result.jobId}.md`))).toBe(true);
  });

  it('rejects an escalated job, then abandons it: worktree and branch removed', async () => {
    fixture = createCliFixture({ protocol: JUDGED_AFTER_EXECUTION });
    const { exitCode, result } = await runJob(fixture, 'Add a doubtful file', ['-m', 'mock/warn']);
    expect(exitCode).toBe(1);
    expect(result.outcome).toBe('escalated');

    const reject = await fixture.snodo(['task', 'reject', result.jobId, '--reason', 'not now']);
    expect(reject.exitCode, reject.all).toBe(0);
    expect(reject.stdout).toContain(`rejected ${result.jobId}`);
    const rejected = jobDetailsJsonSchema.parse(
      parseJson(await snodoInProcess(fixture, ['task', 'show', result.jobId, '--json'])),
    );
    expect(rejected.state.status).toBe('rejected');
    expect(rejected.state.decisions).toEqual([
      expect.objectContaining({ action: 'reject', by: 'tester', reason: 'not now' }),
    ]);

    const approve = await snodoInProcess(fixture, [
      'task',
      'approve',
      result.jobId,
      '--reason',
      'changed my mind',
    ]);
    expect(approve.exitCode).toBe(2);
    expect(approve.stderr).toContain(`error: Cannot approve job ${result.jobId}`);

    const abandon = await fixture.snodo(['task', 'abandon', result.jobId, '--json']);
    expect(abandon.exitCode, abandon.all).toBe(0);
    const abandoned = abandonResultJsonSchema.parse(JSON.parse(abandon.stdout));
    expect(abandoned).toMatchObject({ worktreeRemoved: true, branchDeleted: true });
    expect(existsSync(result.worktreePath ?? '')).toBe(false);
    expect(fixture.git(['branch', '--list', `snodo/${result.jobId}*`])).toBe('');

    const list = taskListJsonSchema.parse(
      parseJson(await snodoInProcess(fixture, ['task', 'list', '--json'])),
    );
    expect(list.jobs[0]).toMatchObject({ jobId: result.jobId, status: 'abandoned', kept: false });
  });

  it('never discards uncommitted work in a kept worktree without --force', async () => {
    fixture = createCliFixture({ protocol: JUDGED_AFTER_EXECUTION });
    const { result } = await runJob(fixture, 'Add a blocked file', ['-m', 'mock/blocker']);
    writeFileSync(join(result.worktreePath ?? '', 'notes.txt'), 'my own work\n');
    const refused = await fixture.snodo(['task', 'abandon', result.jobId]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('notes.txt');
    expect(existsSync(join(result.worktreePath ?? '', 'notes.txt'))).toBe(true);

    const forced = await fixture.snodo(['task', 'abandon', result.jobId, '--force']);
    expect(forced.exitCode, forced.all).toBe(0);
    expect(forced.stdout).toContain('removed its worktree and its branch');
  });

  it('prunes kept jobs: --dry-run lists, --older-than keeps recent ones, then they go', async () => {
    fixture = createCliFixture({ protocol: JUDGED_AFTER_EXECUTION });
    const first = await runJob(fixture, 'Add one blocked file', ['-m', 'mock/blocker']);
    const second = await runJob(fixture, 'Add another blocked file', ['-m', 'mock/blocker']);

    const dry = pruneResultsJsonSchema.parse(
      parseJson(await snodoInProcess(fixture, ['task', 'prune', '--dry-run', '--json'])),
    );
    expect(dry.results.map((entry) => entry.action)).toEqual(['would-remove', 'would-remove']);
    expect(existsSync(first.result.worktreePath ?? '')).toBe(true);

    const recent = await fixture.snodo(['task', 'prune', '--older-than', '7d']);
    expect(recent.exitCode, recent.all).toBe(0);
    expect(recent.stdout).toMatch(new RegExp(`${second.result.jobId}\\s+skipped\\s+too recent`));

    const prune = await fixture.snodo(['task', 'prune']);
    expect(prune.exitCode, prune.all).toBe(0);
    expect(prune.stdout).toMatch(new RegExp(`${first.result.jobId}\\s+removed`));
    expect(existsSync(first.result.worktreePath ?? '')).toBe(false);
    expect(existsSync(second.result.worktreePath ?? '')).toBe(false);

    const bad = await snodoInProcess(fixture, ['task', 'prune', '--older-than', 'a week']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('like 7d or 12h');
  });

  it('says JOB_NOT_FOUND with the command that lists jobs (exit 2)', async () => {
    fixture = createCliFixture();
    const show = await snodoInProcess(fixture, ['task', 'show', 'j_doesnotexist']);
    expect(show.exitCode).toBe(2);
    expect(show.stderr).toContain("No job 'j_doesnotexist'");
    expect(show.stderr).toContain('snodo task list');
  });
});
