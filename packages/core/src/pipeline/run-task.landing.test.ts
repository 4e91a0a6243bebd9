import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoderV1Request } from '@snodo/coder-sdk';
import { MockCoderAdapterV1 } from '@snodo/coder-sdk/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJobState } from '../jobs/index.js';
import { approveJob, mergeJob } from '../tasks/index.js';
import {
  createPipelineFixture,
  mockRegistration,
  type PipelineFixture,
  registrationFor,
} from '../testing/pipeline-fixture.js';

let fixture: PipelineFixture;
beforeEach(() => {
  fixture = createPipelineFixture();
});
afterEach(() => fixture.cleanup());

function writer(id: string, files: Record<string, string>, before?: () => void) {
  return new MockCoderAdapterV1({
    id,
    doRun: async () => {
      before?.();
      return {
        status: 'changed',
        proposals: Object.entries(files).map(([path, content]) => ({
          path,
          action: 'write' as const,
          content,
        })),
        changedFiles: Object.keys(files),
        usage: null,
        durationMs: 1,
      };
    },
  });
}

describe('landing', () => {
  it('keeps the job as merge_conflict when the base moved in a conflicting way; the base is untouched', async () => {
    fixture.write('shared.txt', 'original\n');
    fixture.commitAll('add shared');
    let movedTo = '';
    const coder = writer('conflicting', { 'shared.txt': 'from the coder\n' }, () => {
      fixture.write('shared.txt', 'from someone else\n');
      movedTo = fixture.commitAll('a concurrent change');
    });
    const extraCoders = [registrationFor(coder)];
    const { result: escalated } = await fixture.run({
      task: 'edit shared',
      coder: 'conflicting',
      model: 'mock/pass',
      extraCoders,
    });
    // The base gained a commit no snodo landing made: a human looks first (SPEC §12).
    expect(escalated).toMatchObject({ status: 'halted', outcome: 'escalated' });
    expect(escalated.summary).toContain(movedTo.slice(0, 12));
    expect(escalated.summary).toContain('a concurrent change');
    const result = await approveJob({
      cwd: fixture.root,
      env: fixture.env,
      homeDirectory: fixture.env.HOME,
      jobId: escalated.jobId,
      reason: 'the concurrent change is mine',
      coders: {
        registrations: [mockRegistration, ...extraCoders],
        defaultCoderId: 'mock',
        mockCoderId: 'mock',
      },
    });
    expect(result).toMatchObject({
      status: 'halted',
      outcome: 'merge_conflict',
      conflictedFiles: ['shared.txt'],
    });
    expect(fixture.git(['rev-parse', 'trunk'])).toBe(movedTo);
    expect(readFileSync(join(fixture.root, 'shared.txt'), 'utf8')).toBe('from someone else\n');
    expect(fixture.git(['status', '--porcelain'])).toBe('');
    expect(result.nextSteps).toContain(`snodo task merge ${result.jobId}`);
    expect(result.worktreePath).toBeDefined();
  });

  it('merges with a merge commit when the base moved without conflict, the checkpoint in its trailers', async () => {
    const coder = writer('parallel', { 'coder.txt': 'coder\n' }, () => {
      fixture.write('other.txt', 'other\n');
      fixture.commitAll('unrelated change');
    });
    const extraCoders = [registrationFor(coder)];
    const { result: escalated } = await fixture.run({
      task: 'add coder.txt',
      coder: 'parallel',
      model: 'mock/pass',
      extraCoders,
    });
    expect(escalated).toMatchObject({ status: 'halted', outcome: 'escalated' });
    expect(escalated.summary).toContain('unrelated change');
    expect(fixture.git(['log', '-1', '--format=%s', 'trunk'])).toBe('unrelated change');
    const result = await approveJob({
      cwd: fixture.root,
      env: fixture.env,
      homeDirectory: fixture.env.HOME,
      jobId: escalated.jobId,
      reason: 'that commit is mine',
      coders: {
        registrations: [mockRegistration, ...extraCoders],
        defaultCoderId: 'mock',
        mockCoderId: 'mock',
      },
    });
    expect(result).toMatchObject({ status: 'done', outcome: 'merged' });
    const message = fixture.git(['log', '-1', '--format=%B', 'trunk']);
    expect(fixture.git(['rev-list', '--parents', '-1', 'trunk']).split(' ')).toHaveLength(3);
    expect(message).toContain(`Snodo-Job: ${result.jobId}`);
    expect(message).toMatch(/Snodo-Audit-Checkpoint: [A-Za-z0-9_-]+/);
    expect(readFileSync(join(fixture.root, 'coder.txt'), 'utf8')).toBe('coder\n');
  });

  it('approval accepts exactly the base the human was shown: a commit arriving after it escalates again', async () => {
    const coder = writer('parallel', { 'coder.txt': 'coder\n' }, () => {
      fixture.write('first.txt', 'first\n');
      fixture.commitAll('first foreign commit');
    });
    const extraCoders = [registrationFor(coder)];
    const { result: escalated } = await fixture.run({
      task: 'add coder.txt',
      coder: 'parallel',
      model: 'mock/pass',
      extraCoders,
    });
    expect(escalated.outcome).toBe('escalated');
    fixture.write('second.txt', 'second\n');
    const second = fixture.commitAll('second foreign commit');
    const options = {
      cwd: fixture.root,
      env: fixture.env,
      homeDirectory: fixture.env.HOME,
      jobId: escalated.jobId,
      coders: {
        registrations: [mockRegistration, ...extraCoders],
        defaultCoderId: 'mock',
        mockCoderId: 'mock',
      },
    };
    const again = await approveJob({ ...options, reason: 'the first one is mine' });
    expect(again).toMatchObject({ status: 'halted', outcome: 'escalated' });
    expect(again.summary).toContain(second.slice(0, 12));
    expect(again.summary).not.toContain('first foreign commit');
    expect(fixture.git(['rev-parse', 'trunk'])).toBe(second);
    const landed = await approveJob({ ...options, reason: 'the second one too' });
    expect(landed).toMatchObject({ status: 'done', outcome: 'merged' });
    expect(readFileSync(join(fixture.root, 'coder.txt'), 'utf8')).toBe('coder\n');
  });

  it('merges around unrelated uncommitted work in the main checkout and leaves it byte-identical', async () => {
    fixture.write('notes.txt', 'mine\n');
    fixture.commitAll('notes');
    writeFileSync(join(fixture.root, 'notes.txt'), 'my uncommitted edit\n');
    const { result } = await fixture.run({ task: 'add a file', mock: true });
    expect(result).toMatchObject({ status: 'done', outcome: 'merged' });
    expect(readFileSync(join(fixture.root, 'notes.txt'), 'utf8')).toBe('my uncommitted edit\n');
    expect(fixture.git(['status', '--porcelain'])).toBe('M notes.txt');
    expect(fixture.git(['diff', '--cached', '--name-only'])).toBe('');
  });

  it('defers the merge when uncommitted work overlaps, then `task merge` lands it once the user is done', async () => {
    fixture.write('config.txt', 'v1\n');
    fixture.commitAll('config');
    writeFileSync(join(fixture.root, 'config.txt'), 'my uncommitted edit\n');
    const before = fixture.git(['rev-parse', 'trunk']);
    const coder = writer('config-writer', { 'config.txt': 'v2 from the coder\n' });
    const extraCoders = [registrationFor(coder)];
    const { result } = await fixture.run({
      task: 'update config',
      coder: 'config-writer',
      model: 'mock/pass',
      extraCoders,
    });
    expect(result).toMatchObject({ status: 'halted', outcome: 'merge_deferred' });
    expect(fixture.git(['rev-parse', 'trunk'])).toBe(before);
    expect(readFileSync(join(fixture.root, 'config.txt'), 'utf8')).toBe('my uncommitted edit\n');

    fixture.git(['checkout', '--', 'config.txt']);
    const merged = await mergeJob({
      cwd: fixture.root,
      env: fixture.env,
      homeDirectory: fixture.env.HOME,
      jobId: result.jobId,
      coders: {
        registrations: [mockRegistration, ...extraCoders],
        defaultCoderId: 'mock',
        mockCoderId: 'mock',
      },
    });
    expect(merged).toMatchObject({ status: 'done', outcome: 'merged' });
    expect(readFileSync(join(fixture.root, 'config.txt'), 'utf8')).toBe('v2 from the coder\n');
    expect(readJobState(fixture.root, result.jobId).decisions.map((decision) => decision.action)).toEqual([
      'merge',
    ]);
    expect((await fixture.verifyAudit()).ok).toBe(true);
  });

  it('lands on a base branch that is not called main', async () => {
    const other = createPipelineFixture({ branch: 'develop' });
    try {
      const { result } = await other.run({ task: 'add a file', mock: true });
      expect(result).toMatchObject({ outcome: 'merged', baseRef: 'refs/heads/develop' });
      expect(other.git(['log', '--format=%s', '-1', 'develop'])).toContain(result.jobId);
    } finally {
      other.cleanup();
    }
  });

  it('asks for --base on a detached HEAD before any job exists, and uses it when given', async () => {
    fixture.git(['checkout', '--quiet', '--detach']);
    const jobsBefore = fixture.git(['branch', '--list', 'snodo/*']);
    await expect(fixture.run({ task: 'add a file', mock: true })).rejects.toSatisfy(
      (error: unknown) =>
        (error as { code?: string }).code === 'BASE_BRANCH_REQUIRED' &&
        (error as Error).message.includes('--base'),
    );
    expect(fixture.git(['branch', '--list', 'snodo/*'])).toBe(jobsBefore);
    expect(existsSync(join(fixture.root, '.snodo', 'jobs'))).toBe(false);
    const withBase = await fixture.run({ task: 'add a file', mock: true, base: 'trunk' });
    expect(withBase.result).toMatchObject({ status: 'done', outcome: 'merged' });
    expect(fixture.git(['log', '--format=%s', '-1', 'trunk'])).toContain(withBase.result.jobId);
  });

  it('keeps the branch with merge strategy none and removes only the worktree', async () => {
    const { result } = await fixture.run({ task: 'add a file', mock: true, mergeStrategy: 'none' });
    expect(result).toMatchObject({ status: 'done', outcome: 'branch_kept' });
    expect(fixture.git(['branch', '--list', 'snodo/*'])).toContain(result.jobId);
    expect(fixture.git(['worktree', 'list'])).not.toContain(result.jobId);
  });

  it('runs in the current checkout with --no-isolation and refuses a dirty one', async () => {
    const { result } = await fixture.run({ task: 'add a file', mock: true, isolation: false });
    expect(result).toMatchObject({ status: 'done', outcome: 'merged' });
    expect(fixture.git(['log', '--format=%s', '-1'])).toContain(result.jobId);
    expect(fixture.git(['worktree', 'list']).split('\n')).toHaveLength(1);
    expect(fixture.git(['branch', '--list', 'snodo/*'])).toBe('');

    writeFileSync(join(fixture.root, 'README.md'), 'dirty\n');
    const jobs = readdirSync(join(fixture.root, '.snodo', 'jobs'));
    // Refused before a job exists (issue 13): the user's edit is untouched and no job record is made.
    await expect(
      fixture.run({ task: 'add another file', mock: true, isolation: false }),
    ).rejects.toMatchObject({
      code: 'WORKTREE_DIRTY',
    });
    expect(readFileSync(join(fixture.root, 'README.md'), 'utf8')).toBe('dirty\n');
    expect(readdirSync(join(fixture.root, '.snodo', 'jobs'))).toEqual(jobs);
  });
});

describe('concurrency', () => {
  it('lands two concurrent runs on one repository, and the audit chain verifies', async () => {
    const [first, second] = await Promise.all([
      fixture.run({ task: 'first task', mock: true }),
      fixture.run({ task: 'second task', mock: true }),
    ]);
    expect(first.result.outcome).toBe('merged');
    expect(second.result.outcome).toBe('merged');
    const files = fixture.git(['ls-tree', '-r', '--name-only', 'trunk']);
    expect(files).toContain(`snodo-mock/${first.result.jobId}.md`);
    expect(files).toContain(`snodo-mock/${second.result.jobId}.md`);
    expect(fixture.git(['status', '--porcelain'])).toBe('');
    expect((await fixture.verifyAudit()).ok).toBe(true);
  }, 30_000);
});

describe('cancellation', () => {
  it('cancels through the AbortSignal: the coder stops, the base is untouched, the job is kept as cancelled', async () => {
    const controller = new AbortController();
    const slow = new MockCoderAdapterV1({
      id: 'slow',
      doRun: (request: CoderV1Request) =>
        new Promise((_, reject) => {
          request.abortSignal.addEventListener('abort', () => reject(request.abortSignal.reason));
          setTimeout(() => controller.abort(new Error('user pressed Ctrl-C')), 50);
        }),
    });
    const before = fixture.git(['rev-parse', 'trunk']);
    const { result } = await fixture.run({
      task: 'slow task',
      coder: 'slow',
      model: 'mock/pass',
      signal: controller.signal,
      extraCoders: [registrationFor(slow)],
    });
    expect(result).toMatchObject({ status: 'cancelled', outcome: 'cancelled' });
    expect(fixture.git(['rev-parse', 'trunk'])).toBe(before);
    expect(readJobState(fixture.root, result.jobId).status).toBe('cancelled');
  });
});
