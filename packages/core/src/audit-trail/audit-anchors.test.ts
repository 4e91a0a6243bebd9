import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENESIS_PREV, openAuditLog, readLogGenesis, serializeEvent } from '@snodo/audit';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyRepositoryAudit } from '../tasks/audit-tasks.js';
import { createPipelineFixture, type PipelineFixture } from '../testing/pipeline-fixture.js';
import { auditLogPath } from './audit-paths.js';

// The attacks of issue 11 on the audit log's anchors, as a coder running as the same user would make
// them, against real repositories and whole `--mock` jobs. A fast-forward landing makes no commit of its
// own, so the tests that rely on a merge-commit trailer land with `squash`, which always does.

let fixture: PipelineFixture;
afterEach(() => fixture?.cleanup());

const slow = { timeout: 120_000 };

function options() {
  return { cwd: fixture.root, env: fixture.env, homeDirectory: fixture.env.HOME as string };
}

function jobIds(): string[] {
  return readdirSync(join(fixture.root, '.snodo', 'jobs'));
}

/** Cuts the last `count` events off the log at a line boundary: a self-consistent, shorter chain. */
function cutTail(count: number): void {
  const path = auditLogPath(fixture.root);
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  truncateSync(path, Buffer.byteLength(`${lines.slice(0, -count).join('\n')}\n`));
}

function deleteStoreAndRef(): void {
  rmSync(join(fixture.snodoHome, 'checkpoints'), { recursive: true, force: true });
  fixture.git(['update-ref', '-d', 'refs/snodo/audit']);
}

/** Writes a brand-new log (fresh genesis, new log id) where the real one was. */
async function replaceLog(): Promise<void> {
  rmSync(auditLogPath(fixture.root));
  const log = await openAuditLog(auditLogPath(fixture.root), {
    repository: { path: fixture.root, root_commits: [] },
  });
  await log.append({ type: 'job-start', data: { task: 'nothing to see' } });
  await log.close();
}

async function refusal(run: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await run;
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('expected the run to be refused');
}

describe('snodo run refuses a log its anchors contradict, before any job exists', () => {
  it('a truncated log', slow, async () => {
    fixture = createPipelineFixture();
    await fixture.run({ task: 'first', mock: true });
    cutTail(3);
    const error = await refusal(fixture.run({ task: 'second', mock: true }));
    expect(error.code).toBe('AUDIT_LOG_BEHIND_CHECKPOINT');
    expect(error.message).toContain('E_TRUNCATED');
    expect(error.message).toContain('snodo audit reset --reason');
    expect(jobIds()).toHaveLength(1);
  });

  it('a deleted log with anchors left: no fresh log is started', slow, async () => {
    fixture = createPipelineFixture();
    await fixture.run({ task: 'first', mock: true });
    rmSync(auditLogPath(fixture.root));
    const error = await refusal(fixture.run({ task: 'second', mock: true }));
    expect(error.code).toBe('AUDIT_LOG_MISSING');
    expect(error.message).toContain('refs/snodo/audit names log');
    expect(error.message).toContain('snodo audit verify');
    expect(jobIds()).toHaveLength(1);
    expect(() => readFileSync(auditLogPath(fixture.root))).toThrow();
  });

  it('a log replaced by a fresh one', slow, async () => {
    fixture = createPipelineFixture();
    await fixture.run({ task: 'first', mock: true });
    await replaceLog();
    const before = readFileSync(auditLogPath(fixture.root), 'utf8');
    const error = await refusal(fixture.run({ task: 'second', mock: true }));
    expect(error.code).toBe('AUDIT_LOG_REPLACED');
    expect(jobIds()).toHaveLength(1);
    expect(readFileSync(auditLogPath(fixture.root), 'utf8')).toBe(before);
  });
});

describe('verifyRepositoryAudit holds the log to every anchor of the repository', () => {
  it('says intact after jobs, with anchors from the store, the ref and merge trailers', slow, async () => {
    fixture = createPipelineFixture();
    await fixture.run({ task: 'first', mock: true });
    await fixture.run({ task: 'second', mock: true });
    const verification = await verifyRepositoryAudit(options());
    expect(verification.result).toMatchObject({ ok: true });
    expect(verification.checkpoints).toMatchObject({ foreignKey: 0, otherRepository: 0 });
    expect(verification.checkpoints.store).toBeGreaterThanOrEqual(2);
    expect(verification.checkpoints.ref).toBeGreaterThanOrEqual(2);
    expect(verification.checkpoints.trailers).toBeGreaterThanOrEqual(2);
  });

  it('truncated log, deleted store and deleted ref: the merge trailers still catch it', slow, async () => {
    fixture = createPipelineFixture();
    await fixture.run({ task: 'first', mock: true, mergeStrategy: 'squash' });
    await fixture.run({ task: 'second', mock: true, mergeStrategy: 'squash' });
    cutTail(6);
    deleteStoreAndRef();
    const verification = await verifyRepositoryAudit(options());
    expect(verification.result.ok).toBe(false);
    expect(verification.result.failure?.code).toBe('E_TRUNCATED');
  });

  it('deleted log, store and ref: E_LOG_MISSING from the trailers that remain', slow, async () => {
    fixture = createPipelineFixture();
    await fixture.run({ task: 'first', mock: true, mergeStrategy: 'squash' });
    rmSync(auditLogPath(fixture.root));
    deleteStoreAndRef();
    const verification = await verifyRepositoryAudit(options());
    expect(verification.logExists).toBe(false);
    expect(verification.result.failure?.code).toBe('E_LOG_MISSING');
    expect(verification.result.failure?.reason).toContain('signed anchor');
  });

  it('a replaced log (fresh genesis), even with store and ref deleted: E_LOG_REPLACED', slow, async () => {
    fixture = createPipelineFixture();
    await fixture.run({ task: 'first', mock: true, mergeStrategy: 'squash' });
    await replaceLog();
    expect((await verifyRepositoryAudit(options())).result.failure?.code).toBe('E_LOG_REPLACED');
    deleteStoreAndRef();
    const verification = await verifyRepositoryAudit(options());
    expect(verification.result.ok).toBe(false);
    expect(verification.result.failure?.code).toBe('E_LOG_REPLACED');
    expect(verification.result.failure?.reason).toContain('no signed reset links them');
  });

  it(
    'a fresh log that names the real one as its previous log, unsigned, is still replaced',
    slow,
    async () => {
      fixture = createPipelineFixture();
      await fixture.run({ task: 'first', mock: true });
      const real = (await verifyRepositoryAudit(options())).result;
      rmSync(auditLogPath(fixture.root));
      // A forged reset: a genesis claiming a previous log far longer than any anchor, with no signature.
      const previous = { log_id: real.logId!, size: 1_000_000, head_hash: real.headHash!, source: 'log' };
      const { line } = serializeEvent({
        v: 1,
        seq: 0,
        ts: new Date().toISOString(),
        type: 'log-create',
        actor: 'snodo',
        data: {
          log_id: randomBytes(16).toString('hex'),
          repository: { path: fixture.root, root_commits: [] },
          created_by: 'snodo',
          previous,
          reason: 'routine',
          reset_sig: Buffer.alloc(64).toString('base64'),
        },
        prev: GENESIS_PREV,
      });
      writeFileSync(auditLogPath(fixture.root), `${line}\n`);
      expect(readLogGenesis(auditLogPath(fixture.root))?.previous).toMatchObject({ size: 1_000_000 });
      const verification = await verifyRepositoryAudit(options());
      expect(verification.result.failure?.code).toBe('E_LOG_REPLACED');
      const error = await refusal(fixture.run({ task: 'second', mock: true }));
      expect(error.code).toBe('AUDIT_LOG_REPLACED');
    },
  );
});
