import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, readCheckpoints } from '@snodo/audit';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyRepositoryAudit } from '../tasks/audit-tasks.js';
import { createPipelineFixture, type PipelineFixture } from '../testing/pipeline-fixture.js';
import { auditLogPath, checkpointStoreDirectory, repositoryCheckpointStorePath } from './audit-paths.js';
import { checkAuditAnchors } from './check-audit-anchors.js';
import { appendCheckpointToRef } from './checkpoint-ref.js';
import { snapshotAuditAnchors } from './snapshot-audit-anchors.js';

let fixture: PipelineFixture;
afterEach(() => fixture?.cleanup());

const slow = { timeout: 120_000 };
const auditDist = join(import.meta.dirname, '..', '..', '..', 'audit', 'dist', 'index.js');

function location() {
  const logId = (
    JSON.parse(readFileSync(auditLogPath(fixture.root), 'utf8').split('\n')[0]!) as {
      data: { log_id: string };
    }
  ).data.log_id;
  return {
    repositoryRoot: fixture.root,
    gitCommonDirectory: join(fixture.root, '.git'),
    snodoHome: fixture.snodoHome,
    logId,
  };
}

/** Another snodo process: appends events and signs a checkpoint into the store, as a concurrent job does. */
function appendFromAnotherProcess(storePath: string, count: number): string {
  const script = `
    const audit = await import(${JSON.stringify(auditDist)});
    const log = await audit.openAuditLog(${JSON.stringify(auditLogPath(fixture.root))});
    for (let index = 0; index < ${count}; index++) await log.append({ type: 'step-run', actor: 'other-job', data: { index } });
    const key = audit.loadSigningKey(${JSON.stringify(join(fixture.snodoHome, 'keys', 'audit-signing-key.pem'))});
    const checkpoint = await log.checkpoint(key, { store: ${JSON.stringify(storePath)} });
    await log.close();
    process.stdout.write(JSON.stringify(checkpoint));`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('the audit side of the tamper guard', () => {
  it(
    'does not flag another process appending events, store lines and ref commits meanwhile',
    slow,
    async () => {
      fixture = createPipelineFixture();
      await fixture.run({ task: 'first', mock: true });
      const where = location();
      const snapshot = await snapshotAuditAnchors(where);
      const store = repositoryCheckpointStorePath(fixture.snodoHome, where.gitCommonDirectory, where.logId);
      const checkpoint = JSON.parse(appendFromAnotherProcess(store, 25));
      await appendCheckpointToRef(fixture.root, checkpoint);
      // A whole job of another process, landing and checkpointing, between snapshot and check.
      await fixture.run({ task: 'second', mock: true });
      const check = await checkAuditAnchors(snapshot);
      expect(check.findings).toEqual([]);
    },
  );

  it(
    'names a cut log, a deleted store and a deleted ref; restore makes verify fail loudly',
    slow,
    async () => {
      fixture = createPipelineFixture();
      await fixture.run({ task: 'first', mock: true });
      await fixture.run({ task: 'second', mock: true });
      const where = location();
      const snapshot = await snapshotAuditAnchors(where);
      const storeBefore = readCheckpoints(
        repositoryCheckpointStorePath(fixture.snodoHome, where.gitCommonDirectory, where.logId),
      );
      // The attack: cut 12 events, delete every store, delete the ref.
      const lines = readFileSync(auditLogPath(fixture.root), 'utf8').split('\n').filter(Boolean);
      truncateSync(auditLogPath(fixture.root), Buffer.byteLength(`${lines.slice(0, -12).join('\n')}\n`));
      rmSync(join(fixture.snodoHome, 'checkpoints'), { recursive: true, force: true });
      fixture.git(['update-ref', '-d', 'refs/snodo/audit']);
      expect((await verifyRepositoryAudit({ cwd: fixture.root, env: fixture.env })).result.ok).toBe(true);

      const check = await checkAuditAnchors(snapshot);
      const messages = check.findings.map((finding) => finding.message);
      expect(messages).toContain(
        `the audit log lost 12 events (size ${lines.length} → ${lines.length - 12})`,
      );
      expect(messages.some((message) => /checkpoint store file .* was deleted/.test(message))).toBe(true);
      expect(messages.some((message) => message.startsWith('refs/snodo/audit was deleted'))).toBe(true);
      expect(check.findings.find((finding) => finding.code === 'audit-log-changed')?.logCode).toBe(
        'E_TRUNCATED',
      );

      await check.restore();
      expect(
        readCheckpoints(
          repositoryCheckpointStorePath(fixture.snodoHome, where.gitCommonDirectory, where.logId),
        ),
      ).toEqual(storeBefore);
      expect(fixture.git(['rev-parse', 'refs/snodo/audit'])).toBe(snapshot.refs.get('refs/snodo/audit'));
      const verification = await verifyRepositoryAudit({ cwd: fixture.root, env: fixture.env });
      expect(verification.result.ok).toBe(false);
      expect(verification.result.failure?.code).toBe('E_TRUNCATED');
    },
  );

  it(
    'names forged store lines, a rewound ref and a new ref under refs/snodo/, and strips the forgery',
    slow,
    async () => {
      fixture = createPipelineFixture();
      await fixture.run({ task: 'first', mock: true });
      await fixture.run({ task: 'second', mock: true });
      const where = location();
      const snapshot = await snapshotAuditAnchors(where);
      const store = repositoryCheckpointStorePath(fixture.snodoHome, where.gitCommonDirectory, where.logId);
      const genuine = readCheckpoints(store);
      const forged = { ...genuine.at(-1)!, size: 10_000 };
      appendFileSync(store, `${canonicalJson(forged)}\n`);
      writeFileSync(
        join(
          checkpointStoreDirectory(fixture.snodoHome, where.gitCommonDirectory),
          `${'a'.repeat(32)}.jsonl`,
        ),
        `${canonicalJson({ ...forged, log_id: 'a'.repeat(32) })}\n`,
      );
      fixture.git(['update-ref', 'refs/snodo/audit', 'refs/snodo/audit~1']);
      fixture.git(['update-ref', 'refs/snodo/escape', 'HEAD']);

      const check = await checkAuditAnchors(snapshot);
      const codes = check.findings.map((finding) => finding.code).sort();
      expect(codes).toEqual([
        'audit-ref-rewound',
        'checkpoint-store-forged',
        'checkpoint-store-forged',
        'snodo-ref-changed',
      ]);
      expect(check.findings.find((finding) => finding.code === 'snodo-ref-changed')?.message).toMatch(
        /^refs\/snodo\/escape appeared/,
      );
      await check.restore();
      expect(readCheckpoints(store)).toEqual(genuine);
      expect(fixture.git(['rev-parse', 'refs/snodo/audit'])).toBe(snapshot.refs.get('refs/snodo/audit'));
      expect(existsSync(store)).toBe(true);
    },
  );
});
