import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openAuditLog, readLogGenesis } from '@snodo/audit';
import { afterEach, describe, expect, it } from 'vitest';
import { resetRepositoryAudit, verifyRepositoryAudit } from '../tasks/audit-tasks.js';
import { createPipelineFixture, type PipelineFixture } from '../testing/pipeline-fixture.js';
import { archivedAuditLogPath, auditLogPath } from './audit-paths.js';

let fixture: PipelineFixture;
afterEach(() => fixture?.cleanup());

const slow = { timeout: 120_000 };

function options<T extends object>(extra: T = {} as T) {
  return {
    cwd: fixture.root,
    env: fixture.env,
    homeDirectory: fixture.env.HOME as string,
    actor: 'ana',
    ...extra,
  };
}

describe('snodo audit reset --reason', () => {
  it(
    'after a lost log: a new log naming the newest anchor, then runs land and verify says intact',
    slow,
    async () => {
      fixture = createPipelineFixture();
      await fixture.run({ task: 'first', mock: true });
      const old = (await verifyRepositoryAudit(options())).result;
      rmSync(auditLogPath(fixture.root));
      expect((await verifyRepositoryAudit(options())).result.failure?.code).toBe('E_LOG_MISSING');

      const reset = await resetRepositoryAudit(options({ reason: 'the disk died; the log is gone' }));
      expect(reset.previous).toMatchObject({ log_id: old.logId, size: old.events, source: 'checkpoint' });
      expect(reset.archivedAs).toBeUndefined();
      expect(reset.logId).not.toBe(old.logId);
      const genesis = readLogGenesis(auditLogPath(fixture.root));
      expect(genesis?.event.actor).toBe('ana');
      expect(genesis?.event.data).toMatchObject({
        reason: 'the disk died; the log is gone',
        previous: reset.previous,
      });

      const { result } = await fixture.run({ task: 'after the reset', mock: true });
      expect(result.outcome).toBe('merged');
      const verification = await verifyRepositoryAudit(options());
      expect(verification.result, JSON.stringify(verification.result.failure)).toMatchObject({ ok: true });
      expect(verification.lineage).toEqual([old.logId]);
      expect(verification.checkpoints.lineage).toBeGreaterThan(0);
    },
  );

  it(
    'over an intact log: keeps it byte for byte as .snodo/audit.<id>.log and records its verified head',
    slow,
    async () => {
      fixture = createPipelineFixture();
      await fixture.run({ task: 'first', mock: true });
      const before = readFileSync(auditLogPath(fixture.root));
      const old = (await verifyRepositoryAudit(options())).result;
      const reset = await resetRepositoryAudit(options({ reason: 'moving to a new log format' }));
      expect(reset.previous).toMatchObject({
        log_id: old.logId,
        size: old.events,
        head_hash: old.headHash,
        source: 'log',
        archived_as: `.snodo/audit.${old.logId}.log`,
      });
      expect(readFileSync(archivedAuditLogPath(fixture.root, old.logId!))).toEqual(before);
      expect(fixture.git(['status', '--porcelain'])).toBe('');
      expect((await verifyRepositoryAudit(options())).result.ok).toBe(true);
      expect((await fixture.run({ task: 'second', mock: true })).result.outcome).toBe('merged');
      expect((await verifyRepositoryAudit(options())).result.ok).toBe(true);
    },
  );

  it(
    'over a replaced log: the real log id is recorded as superseded, so the human decision is on record',
    slow,
    async () => {
      fixture = createPipelineFixture();
      await fixture.run({ task: 'first', mock: true });
      const real = (await verifyRepositoryAudit(options())).result.logId;
      rmSync(auditLogPath(fixture.root));
      const fake = await openAuditLog(auditLogPath(fixture.root), { repository: { path: fixture.root } });
      await fake.close();
      expect((await verifyRepositoryAudit(options())).result.failure?.code).toBe('E_LOG_REPLACED');
      const reset = await resetRepositoryAudit(
        options({ reason: 'a coder replaced the log; investigated in #42' }),
      );
      expect(reset.previous).toMatchObject({ log_id: fake.logId, source: 'log' });
      expect(reset.superseded.map((record) => record.log_id)).toEqual([real]);
      expect((await verifyRepositoryAudit(options())).result.ok).toBe(true);
    },
  );

  it('refuses an empty reason, and a reset with nothing to reset', slow, async () => {
    fixture = createPipelineFixture();
    await expect(resetRepositoryAudit(options({ reason: ' ' }))).rejects.toMatchObject({
      code: 'AUDIT_RESET_REFUSED',
    });
    await expect(resetRepositoryAudit(options({ reason: 'why not' }))).rejects.toMatchObject({
      code: 'AUDIT_RESET_REFUSED',
      message: expect.stringContaining('nothing to reset'),
    });
    expect(existsSync(join(fixture.root, '.snodo', 'audit.log'))).toBe(false);
  });
});
