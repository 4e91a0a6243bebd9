import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  auditEventsJsonSchema,
  auditVerifyJsonSchema,
  dsseEnvelopeJsonSchema,
} from '../../json/audit-json-schemas.js';
import { runResultJsonSchema } from '../../json/run-result-json-schema.js';
import { type CliFixture, createCliFixture, parseJson } from '../../testing/cli-fixture.js';

describe('snodo audit', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('verifies, shows and exports, and catches an edited line (exit 1, with the line)', async () => {
    fixture = createCliFixture();
    const run = await fixture.snodo(['run', 'Add an audited file', '--mock', '--json']);
    expect(run.exitCode, run.all).toBe(0);
    const { jobId, mergeCommit } = runResultJsonSchema.parse(JSON.parse(run.stdout));

    const verify = auditVerifyJsonSchema.parse(parseJson(await fixture.snodo(['audit', 'verify', '--json'])));
    expect(verify.result.ok).toBe(true);
    expect(verify.result.checkpointsVerified).toBeGreaterThan(0);
    expect(verify.checkpoints.ref).toBeGreaterThan(0);

    const events = auditEventsJsonSchema.parse(
      parseJson(await fixture.snodo(['audit', 'show', '--job', jobId, '--json'])),
    );
    expect(events.every((event) => event.job === jobId)).toBe(true);
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['job-start', 'coder-resolve', 'merge-end']),
    );
    const show = await fixture.snodo(['audit', 'show']);
    expect(show.stdout).toMatch(/^\s+0 \S+ log-create/m);

    const exported = await fixture.snodo(['audit', 'export', '--job', jobId]);
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
    const broken = await fixture.snodo(['audit', 'verify']);
    expect(broken.exitCode, broken.all).toBe(1);
    expect(broken.stdout).toContain(`line ${index + 1}`);
    expect(broken.stdout).toContain('E_HASH');
  });

  it('explains that there is no audit log before the first run (exit 2)', async () => {
    fixture = createCliFixture();
    const verify = await fixture.snodo(['audit', 'verify']);
    expect(verify.exitCode).toBe(2);
    expect(verify.stderr).toContain('There is no audit log');
    expect(verify.stderr).toContain('snodo run');
  });

  it('requires --job for export (a usage error, exit 2)', async () => {
    fixture = createCliFixture();
    const exported = await fixture.snodo(['audit', 'export']);
    expect(exported.exitCode).toBe(2);
    expect(exported.stderr).toContain("required option '--job <id>' not specified");
  });
});
