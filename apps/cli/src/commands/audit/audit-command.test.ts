import { readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAuditLog } from '@snodo/audit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  auditEventsJsonSchema,
  auditResetJsonSchema,
  auditVerifyJsonSchema,
  dsseEnvelopeJsonSchema,
} from '../../json/audit-json-schemas.js';
import { runResultJsonSchema } from '../../json/run-result-json-schema.js';
import { type CliFixture, createCliFixture, parseJson } from '../../testing/cli-fixture.js';
import { snodoInProcess } from '../../testing/in-process-cli.js';

describe('snodo audit', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('verifies, shows and exports, and catches an edited line (exit 1, with the line)', async () => {
    fixture = createCliFixture();
    const run = await fixture.snodo(['run', 'Add an audited file', '--mock', '--json']);
    expect(run.exitCode, run.all).toBe(0);
    const { jobId, mergeCommit } = runResultJsonSchema.parse(JSON.parse(run.stdout));

    const verify = auditVerifyJsonSchema.parse(
      parseJson(await snodoInProcess(fixture, ['audit', 'verify', '--json'])),
    );
    expect(verify.result.ok).toBe(true);
    expect(verify.result.checkpointsVerified).toBeGreaterThan(0);
    expect(verify.checkpoints.ref).toBeGreaterThan(0);

    const events = auditEventsJsonSchema.parse(
      parseJson(await snodoInProcess(fixture, ['audit', 'show', '--job', jobId, '--json'])),
    );
    expect(events.every((event) => event.job === jobId)).toBe(true);
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['job-start', 'coder-resolve', 'merge-end']),
    );
    const show = await snodoInProcess(fixture, ['audit', 'show']);
    expect(show.stdout).toMatch(/^\s+0 \S+ log-create/m);

    const exported = await snodoInProcess(fixture, ['audit', 'export', '--job', jobId]);
    expect(exported.exitCode, exported.all).toBe(0);
    const envelope = dsseEnvelopeJsonSchema.parse(JSON.parse(exported.stdout));
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as {
      subject: { digest: { gitCommit: string } }[];
    };
    expect(statement.subject.map((subject) => subject.digest.gitCommit)).toContain(mergeCommit);

    // Edit one recorded fact: the chain no longer verifies, and the report names the line.
    const logPath = join(fixture.root, '.snodo', 'audit.log');
    const lines = readFileSync(logPath, 'utf8').split('\n');
    const index = lines.findIndex((line) => line.includes('"type":"job-start"'));
    lines[index] = (lines[index] ?? '').replace('Add an audited file', 'Add a harmless file');
    writeFileSync(logPath, lines.join('\n'));
    const broken = await snodoInProcess(fixture, ['audit', 'verify']);
    expect(broken.exitCode, broken.all).toBe(1);
    expect(broken.stdout).toContain(`line ${index + 1}`);
    expect(broken.stdout).toContain('E_HASH');
  });

  it('explains that there is no audit log before the first run (exit 2)', async () => {
    fixture = createCliFixture();
    const verify = await snodoInProcess(fixture, ['audit', 'verify']);
    expect(verify.exitCode).toBe(2);
    expect(verify.stderr).toContain('There is no audit log');
    expect(verify.stderr).toContain('snodo run');
  });

  it('requires --job for export (a usage error, exit 2)', async () => {
    fixture = createCliFixture();
    const exported = await snodoInProcess(fixture, ['audit', 'export']);
    expect(exported.exitCode).toBe(2);
    expect(exported.stderr).toContain("required option '--job <id>' not specified");
  });

  it('a deleted log with anchors: verify exits 1 with E_LOG_MISSING, run refuses (exit 1) before any job', {
    timeout: 120_000,
  }, async () => {
    fixture = createCliFixture();
    expect((await fixture.snodo(['run', 'First', '--mock'])).exitCode).toBe(0);
    rmSync(join(fixture.root, '.snodo', 'audit.log'));
    const verify = await snodoInProcess(fixture, ['audit', 'verify']);
    expect(verify.exitCode, verify.all).toBe(1);
    expect(verify.stdout).toContain('E_LOG_MISSING');
    expect(verify.stdout).toContain('snodo audit reset --reason');
    const json = auditVerifyJsonSchema.parse(
      parseJson(await snodoInProcess(fixture, ['audit', 'verify', '--json'])),
    );
    expect(json).toMatchObject({
      logExists: false,
      result: { ok: false, failure: { code: 'E_LOG_MISSING' } },
    });

    const run = await fixture.snodo(['run', 'Second', '--mock']);
    expect(run.exitCode, run.all).toBe(1);
    expect(run.stderr).toContain('snodo audit reset --reason');
    expect(readdirSync(join(fixture.root, '.snodo', 'jobs'))).toHaveLength(1);
  });

  it('a truncated log: run refuses (exit 1) before any job; a replaced log: verify says E_LOG_REPLACED', {
    timeout: 120_000,
  }, async () => {
    fixture = createCliFixture();
    expect((await fixture.snodo(['run', 'First', '--mock'])).exitCode).toBe(0);
    const logPath = join(fixture.root, '.snodo', 'audit.log');
    const lines = readFileSync(logPath, 'utf8').split('\n').filter(Boolean);
    truncateSync(logPath, Buffer.byteLength(`${lines.slice(0, -2).join('\n')}\n`));
    const run = await fixture.snodo(['run', 'Second', '--mock']);
    expect(run.exitCode, run.all).toBe(1);
    expect(run.stderr).toContain('behind its newest signed checkpoint');
    expect(readdirSync(join(fixture.root, '.snodo', 'jobs'))).toHaveLength(1);
    const verify = await snodoInProcess(fixture, ['audit', 'verify']);
    expect(verify.exitCode).toBe(1);
    expect(verify.stdout).toContain('E_TRUNCATED');

    // A fresh log written from scratch in its place (another genesis, another log id).
    rmSync(logPath);
    const fresh = await openAuditLog(logPath, { repository: { path: fixture.root } });
    await fresh.close();
    const replaced = await snodoInProcess(fixture, ['audit', 'verify']);
    expect(replaced.exitCode).toBe(1);
    expect(replaced.stdout).toContain('E_LOG_REPLACED');
    const refused = await fixture.snodo(['run', 'Third', '--mock']);
    expect(refused.exitCode, refused.all).toBe(1);
    expect(refused.stderr).toContain('the log was replaced');
    expect(readdirSync(join(fixture.root, '.snodo', 'jobs'))).toHaveLength(1);
  });

  it('audit reset --reason starts a new log; then a run lands and verify says intact', {
    timeout: 120_000,
  }, async () => {
    fixture = createCliFixture();
    expect((await fixture.snodo(['run', 'First', '--mock'])).exitCode).toBe(0);
    rmSync(join(fixture.root, '.snodo', 'audit.log'));
    const missing = await fixture.snodo(['audit', 'reset']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("required option '--reason <text>' not specified");
    const empty = await fixture.snodo(['audit', 'reset', '--reason', '']);
    expect(empty.exitCode).toBe(2);

    const reset = await fixture.snodo(['audit', 'reset', '--reason', 'the log was lost with the old disk']);
    expect(reset.exitCode, reset.all).toBe(0);
    expect(reset.stdout).toMatch(/started audit log [0-9a-f]{32}/);
    expect(reset.stdout).toContain('newest signed checkpoint');
    const run = await fixture.snodo(['run', 'After the reset', '--mock']);
    expect(run.exitCode, run.all).toBe(0);
    const verify = await snodoInProcess(fixture, ['audit', 'verify']);
    expect(verify.exitCode, verify.all).toBe(0);
    expect(verify.stdout).toContain('intact');
    expect(verify.stdout).toContain('earlier logs (signed resets)');

    const again = auditResetJsonSchema.parse(
      parseJson(await fixture.snodo(['audit', 'reset', '--reason', 'second reset', '--json'])),
    );
    expect(again.previous.source).toBe('log');
    expect(again.archivedAs).toContain(`audit.${again.previous.log_id}.log`);
    expect((await snodoInProcess(fixture, ['audit', 'verify'])).exitCode).toBe(0);
    expect(fixture.git(['status', '--porcelain'])).toBe('');
  });
});
