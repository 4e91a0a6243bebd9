import { existsSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPublicKey, verifyAttestation } from '@snodo/audit';
import { afterEach, describe, expect, it } from 'vitest';
import { readJobState } from '../jobs/index.js';
import {
  createPipelineFixture,
  mockRegistration,
  type PipelineFixture,
  testProtocol,
} from '../testing/pipeline-fixture.js';
import {
  abandonJob,
  approveJob,
  diffJob,
  exportJobAttestation,
  JobActionRefusedError,
  mergeJob,
  pruneJobs,
  rejectJob,
  showJob,
  verifyRepositoryAudit,
} from './index.js';

const coders = { registrations: [mockRegistration], defaultCoderId: 'mock', mockCoderId: 'mock' };
let fixture: PipelineFixture;
afterEach(() => fixture?.cleanup());

function options<T extends object>(extra: T = {} as T) {
  return {
    cwd: fixture.root,
    env: fixture.env,
    homeDirectory: fixture.env.HOME as string,
    actor: 'reviewer',
    ...extra,
  };
}

/**
 * The test protocol whose pre-execute judge passes on its own model, so `-m mock/blocker` blocks only after
 * the coder ran: a halted job with a workspace to abandon or prune (a halt before execution keeps none).
 */
const blockingAfterExecution = testProtocol.replace(
  '  - validator_id: task-review\n',
  '  - validator_id: task-review\n    model: mock/pass\n',
);

/** The test protocol with one judge given its own model, to escalate in a chosen phase. */
function protocolWithWarningJudge(validatorId: 'task-review' | 'security'): string {
  return testProtocol.replace(
    `  - validator_id: ${validatorId}\n`,
    `  - validator_id: ${validatorId}\n    model: mock/warn\n`,
  );
}

describe('approving escalations', { timeout: 30_000 }, () => {
  it('lands a job escalated after the coder ran, recording who approved and why', async () => {
    fixture = createPipelineFixture({ protocol: protocolWithWarningJudge('security') });
    const { result } = await fixture.run({ task: 'add a file', mock: true });
    expect(result.outcome).toBe('escalated');
    const before = fixture.git(['rev-parse', 'trunk']);

    const approved = await approveJob(options({ jobId: result.jobId, reason: 'reviewed the diff', coders }));

    expect(approved).toMatchObject({ status: 'done', outcome: 'merged' });
    expect(fixture.git(['rev-parse', 'trunk'])).not.toBe(before);
    expect(fixture.git(['ls-tree', '--name-only', '-r', 'trunk'])).toContain(`snodo-mock/${result.jobId}.md`);
    const state = readJobState(fixture.root, result.jobId);
    expect(state.decisions).toEqual([
      expect.objectContaining({ action: 'approve', by: 'reviewer', reason: 'reviewed the diff' }),
    ]);
    const log = readFileSync(join(fixture.root, '.snodo/audit.log'), 'utf8');
    expect(log).toContain('"type":"job-approve"');
    expect((await fixture.verifyAudit()).ok).toBe(true);
  });

  it('continues a job escalated before execution: the coder runs, the gates pass, the change lands', async () => {
    fixture = createPipelineFixture({ protocol: protocolWithWarningJudge('task-review') });
    const { result } = await fixture.run({ task: 'add a file', mock: true });
    expect(result).toMatchObject({ outcome: 'escalated', attempts: 0 });
    const approved = await approveJob(options({ jobId: result.jobId, reason: 'the task is fine', coders }));
    expect(approved).toMatchObject({ status: 'done', outcome: 'merged', attempts: 1 });
  });

  it('refuses to approve a blocker away', async () => {
    fixture = createPipelineFixture();
    const { result } = await fixture.run({ task: 'add a file', mock: true, model: 'mock/blocker' });
    await expect(approveJob(options({ jobId: result.jobId, reason: 'please', coders }))).rejects.toSatisfy(
      (error: unknown) =>
        JobActionRefusedError.isInstance(error) && /cannot approve away/.test((error as Error).message),
    );
  });
});

describe('rejecting, abandoning, pruning', { timeout: 30_000 }, () => {
  it('rejects an escalated job and later abandons it, removing its worktree and branch', async () => {
    fixture = createPipelineFixture({ protocol: protocolWithWarningJudge('security') });
    const { result } = await fixture.run({ task: 'add a file', mock: true });
    const rejected = await rejectJob(options({ jobId: result.jobId, reason: 'not what we want' }));
    expect(rejected.status).toBe('rejected');
    expect(fixture.git(['branch', '--list', 'snodo/*'])).toContain(result.jobId);

    const abandoned = await abandonJob(options({ jobId: result.jobId }));
    expect(abandoned).toMatchObject({ worktreeRemoved: true, branchDeleted: true });
    expect(fixture.git(['branch', '--list', 'snodo/*'])).toBe('');
    expect(readJobState(fixture.root, result.jobId).status).toBe('abandoned');
  });

  it('never abandons a worktree with uncommitted changes without force', async () => {
    fixture = createPipelineFixture({ protocol: blockingAfterExecution });
    const { result } = await fixture.run({ task: 'add a file', mock: true, model: 'mock/blocker' });
    const worktree = readJobState(fixture.root, result.jobId).isolation?.worktreePath as string;
    writeFileSync(join(worktree, 'scratch.txt'), 'work in progress\n');
    await expect(abandonJob(options({ jobId: result.jobId }))).rejects.toThrow(/scratch\.txt/);
    expect(readFileSync(join(worktree, 'scratch.txt'), 'utf8')).toBe('work in progress\n');
    await abandonJob(options({ jobId: result.jobId, force: true }));
    expect(existsSync(worktree)).toBe(false);
    expect(fixture.git(['branch', '--list', 'snodo/*'])).toBe('');
  });

  it('prunes kept jobs older than the limit, and lists them in a dry run first', async () => {
    fixture = createPipelineFixture({ protocol: blockingAfterExecution });
    const { result } = await fixture.run({ task: 'add a file', mock: true, model: 'mock/blocker' });
    const later = Date.now() + 10 * 24 * 3600 * 1000;
    expect(await pruneJobs(options({ olderThanMs: 7 * 24 * 3600 * 1000 }))).toEqual([
      { jobId: result.jobId, action: 'skipped', reason: 'too-recent' },
    ]);
    expect(await pruneJobs(options({ olderThanMs: 7 * 24 * 3600 * 1000, now: later, dryRun: true }))).toEqual(
      [{ jobId: result.jobId, action: 'would-remove' }],
    );
    expect(fixture.git(['branch', '--list', 'snodo/*'])).toContain(result.jobId);
    expect(await pruneJobs(options({ olderThanMs: 7 * 24 * 3600 * 1000, now: later }))).toEqual([
      { jobId: result.jobId, action: 'removed' },
    ]);
    expect(fixture.git(['branch', '--list', 'snodo/*'])).toBe('');
  });

  it('shows a job and its diff', async () => {
    fixture = createPipelineFixture();
    const { result } = await fixture.run({ task: 'add a file', mock: true, model: 'mock/blocker' });
    const details = await showJob(options({ jobId: result.jobId }));
    expect(details.state.outcome).toBe('blocker');
    expect(details.gateFiles.length).toBeGreaterThan(0);
    const blocked = await fixture.run({ task: 'add a file', mock: true, mergeStrategy: 'none' });
    const diff = await diffJob(options({ jobId: blocked.result.jobId }));
    expect(diff.files.map((file) => file.path)).toEqual([`snodo-mock/${blocked.result.jobId}.md`]);
    expect(diff.patch).toContain('+Attempt: 1');
  });
});

describe('merging a kept job', { timeout: 30_000 }, () => {
  it('imports what the user committed in the kept workspace before landing it', async () => {
    fixture = createPipelineFixture();
    // An untracked file where the coder adds a directory: landing would overwrite it, so it is deferred.
    fixture.write('snodo-mock', 'my notes\n');
    const { result } = await fixture.run({ task: 'add a file', mock: true });
    expect(result.outcome).toBe('merge_deferred');
    const state = readJobState(fixture.root, result.jobId);
    expect(state.isolation?.mode).toBe('repository');
    const worktree = state.isolation?.worktreePath as string;

    // The user finishes the job in its workspace, then clears the way and merges.
    writeFileSync(join(worktree, 'follow-up.txt'), 'by hand\n');
    fixture.git(['add', 'follow-up.txt'], worktree);
    fixture.git(['commit', '--quiet', '-m', 'follow-up by the user'], worktree);
    const diff = await diffJob(options({ jobId: result.jobId }));
    expect(diff.files.map((file) => file.path).sort()).toEqual([
      'follow-up.txt',
      `snodo-mock/${result.jobId}.md`,
    ]);
    rmSync(join(fixture.root, 'snodo-mock'));
    const merged = await mergeJob(options({ jobId: result.jobId, coders }));

    expect(merged).toMatchObject({ status: 'done', outcome: 'merged' });
    expect(fixture.git(['show', 'trunk:follow-up.txt'])).toBe('by hand');
    expect(fixture.git(['ls-tree', '--name-only', '-r', 'trunk'])).toContain(`snodo-mock/${result.jobId}.md`);
    const log = readFileSync(join(fixture.root, '.snodo/audit.log'), 'utf8');
    expect(log).toContain('"type":"workspace-import"');
    expect((await fixture.verifyAudit()).ok).toBe(true);
  });
});

describe('audit verification and export', { timeout: 30_000 }, () => {
  it('verifies against the store, refs/snodo/audit and merge trailers, and catches a truncated tail', async () => {
    fixture = createPipelineFixture();
    await fixture.run({ task: 'first', mock: true });
    await fixture.run({ task: 'second', mock: true });
    const intact = await verifyRepositoryAudit(options());
    expect(intact.result.ok).toBe(true);
    expect(intact.result.checkpointsVerified).toBeGreaterThan(0);
    expect(intact.checkpoints.store).toBeGreaterThan(0);
    expect(intact.checkpoints.ref).toBeGreaterThan(0);

    // Cut the last events off: the chain that remains is self-consistent, only the checkpoints notice.
    const logPath = join(fixture.root, '.snodo/audit.log');
    const lines = readFileSync(logPath, 'utf8').split('\n').filter(Boolean);
    truncateSync(logPath, Buffer.byteLength(`${lines.slice(0, -3).join('\n')}\n`));
    const truncated = await verifyRepositoryAudit(options());
    expect(truncated.result.ok).toBe(false);
    expect(truncated.result.failure?.code).toBe('E_TRUNCATED');
  });

  it('exports a signed in-toto attestation of one job that verifies with snodo’s public key', async () => {
    fixture = createPipelineFixture();
    const { result } = await fixture.run({ task: 'add a file', mock: true });
    const envelope = await exportJobAttestation(options({ jobId: result.jobId }));
    const publicKey = loadPublicKey(join(fixture.snodoHome, 'keys', 'audit-signing-key.pub.pem'));
    const verified = verifyAttestation(envelope, publicKey);
    expect(verified.ok).toBe(true);
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
    expect(statement.subject[0].digest.gitCommit).toBe(fixture.git(['rev-parse', 'trunk']));
    expect(statement.predicate.job).toBe(result.jobId);
  });
});
