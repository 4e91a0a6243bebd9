import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diffPatch } from '../git/index.js';
import { readJobState } from '../jobs/index.js';
import { createPipelineFixture, type PipelineFixture } from '../testing/pipeline-fixture.js';

let fixture: PipelineFixture;
beforeEach(() => {
  fixture = createPipelineFixture();
});
afterEach(() => fixture.cleanup());

describe('runTask, the happy path with the mock coder', () => {
  it('lands the change on the base branch, cleans up, and leaves the checkout clean', async () => {
    const { result } = await fixture.run({ task: 'Add a greeting file\n\nwith details', mock: true });

    expect(result).toMatchObject({ status: 'done', outcome: 'merged', attempts: 1 });
    expect(result.changedFiles).toEqual([`snodo-mock/${result.jobId}.md`]);
    expect(fixture.git(['show', `trunk:snodo-mock/${result.jobId}.md`])).toContain('Add a greeting file');
    // The main checkout has trunk checked out: its files follow the merge, and nothing shows as changed.
    expect(existsSync(join(fixture.root, `snodo-mock/${result.jobId}.md`))).toBe(true);
    expect(fixture.git(['status', '--porcelain'])).toBe('');
    expect(fixture.git(['worktree', 'list'])).not.toContain(result.jobId);
    expect(fixture.git(['branch', '--list', 'snodo/*'])).toBe('');
    expect(result.worktreePath).toBeUndefined();
    expect(result.nextSteps).toEqual([]);

    const commit = fixture.git(['log', '-1', '--format=%B', 'trunk']);
    expect(commit).toContain(`snodo(${result.jobId}): Add a greeting file`);
    expect(commit).toContain(`Snodo-Job: ${result.jobId}`);
    expect(commit).toContain('Snodo-Coder: mock@');
  });

  it('reports every stage in order on the event stream, ending with job-end', async () => {
    const { result, events } = await fixture.run({ task: 'add a file', mock: true });
    const stages = events.filter((event) => event.type === 'stage-start').map((event) => event.stage);
    // The workspace is made once the pre-execute judges pass (issue 13): they need the task, not a checkout.
    expect(stages).toEqual(['classify', 'resolve', 'pre-gates', 'isolate', 'execute', 'post-gates', 'land']);
    expect(events[0]?.type).toBe('job-start');
    expect(events.at(-1)).toMatchObject({ type: 'job-end', result: { jobId: result.jobId } });
    // Events arrive as gates finish (command gates finish before post-execute judges start, since judges
    // read their results); the result lists verdicts in protocol order.
    const streamed = events.filter((event) => event.type === 'gate-verdict').map((event) => event.gateId);
    expect(streamed).toEqual([
      'task-review',
      'snodo_mutation_guard',
      'workspace_symlink_guard',
      'known_secrets_guard',
      'no-secrets',
      'tests',
      'security',
    ]);
    expect(result.verdicts.map((verdict) => verdict.gateId)).toEqual([
      'task-review',
      'snodo_mutation_guard',
      'workspace_symlink_guard',
      'known_secrets_guard',
      'no-secrets',
      'security',
      'tests',
    ]);
  });

  it('records the job in state.json and task.json with models, their sources and timings', async () => {
    const { result } = await fixture.run({ task: 'add a file', mock: true });
    const state = readJobState(fixture.root, result.jobId);
    expect(state).toMatchObject({
      status: 'done',
      outcome: 'merged',
      mode: 'producer',
      coder: { id: 'mock', source: 'mock-flag' },
      models: { judging: { model: 'mock/pass', source: 'mock-default' } },
      landing: { outcome: 'merged', strategy: 'merge' },
    });
    expect(Object.keys(state.stages)).toEqual(
      expect.arrayContaining([
        'classify',
        'resolve',
        'isolate',
        'pre-gates',
        'execute',
        'post-gates',
        'land',
      ]),
    );
    // Every stage's end is on record, the last one's too (it goes with the job's final write).
    for (const [stage, timing] of Object.entries(state.stages)) {
      expect(timing, stage).toMatchObject({ endedAt: expect.any(String), durationMs: expect.any(Number) });
    }
    expect(state.usage.coder).toMatchObject({ inputTokens: 0, outputTokens: 0, source: 'reported' });
    expect(state.checkpoint).toMatch(/^Snodo-Audit-Checkpoint: /);
    const task = JSON.parse(
      readFileSync(join(fixture.root, '.snodo/jobs', result.jobId, 'task.json'), 'utf8'),
    );
    expect(task).toMatchObject({ task: 'add a file', options: { mock: true } });
  });

  it('writes a verifying audit chain with every stage, anchored by signed checkpoints', async () => {
    const { result } = await fixture.run({ task: 'add a file', mock: true });
    const verified = await fixture.verifyAudit();
    expect(verified.ok).toBe(true);
    const events = readFileSync(join(fixture.root, '.snodo/audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; job?: string; data?: Record<string, unknown> })
      .filter((event) => event.job === result.jobId);
    const types = events.map((event) => event.type);
    expect(types).toEqual([
      'job-start',
      'task-classify',
      'coder-resolve',
      'gate-verdict',
      'policy-decide',
      'workspace-create',
      'coder-start',
      'coder-end',
      'gate-verdict',
      'gate-verdict',
      'gate-verdict',
      'gate-verdict',
      'gate-verdict',
      'gate-verdict',
      'policy-decide',
      'merge-start',
      'merge-end',
      'job-end',
    ]);
    expect(fixture.git(['log', '--format=%s', 'refs/snodo/audit'])).toContain('snodo audit checkpoint');
    // The attempt's diff is on record by its hash: the same diff read again from the landed commits.
    const coderEnd = events.find((event) => event.type === 'coder-end')?.data ?? {};
    const base = events.find((event) => event.type === 'coder-start')?.data?.base_commit as string;
    const patch = await diffPatch({ cwd: fixture.root, from: base, to: coderEnd.commit as string });
    expect(coderEnd.diff_sha256).toBe(createHash('sha256').update(patch).digest('hex'));
  });

  it('never dirties the main checkout: runtime files are excluded through info/exclude', async () => {
    await fixture.run({ task: 'add a file', mock: true });
    const exclude = readFileSync(join(fixture.root, '.git/info/exclude'), 'utf8');
    expect(exclude).toContain('/.snodo/jobs/');
    expect(exclude).toContain('/.snodo/audit.log');
    expect(existsSync(join(fixture.root, '.snodo/running-jobs/.complete'))).toBe(true);
    expect(fixture.git(['status', '--porcelain', '--ignored=no'])).toBe('');
  });
});
