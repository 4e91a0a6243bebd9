import { verify } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  exportAttestation,
  IN_TOTO_PAYLOAD_TYPE,
  IN_TOTO_STATEMENT_TYPE,
  verifyAttestation,
} from './attestation.js';
import type { AuditEvent } from './audit-event.js';
import { preAuthEncoding } from './dsse.js';
import { AuditOptionsError } from './errors.js';
import { openAuditLog } from './open-audit-log.js';
import { readAuditEvents } from './read-audit-events.js';
import { createSigningKey } from './signing-key.js';
import { useTemporaryDirectory } from './testing/temporary-directory.js';
import { testRepository } from './testing/test-repository.js';

describe('attestation export', () => {
  const directory = useTemporaryDirectory();

  async function jobEvents(): Promise<AuditEvent[]> {
    const path = join(directory(), 'audit.log');
    const log = await openAuditLog(path, { repository: testRepository });
    await log.append({ type: 'job-start', job: 'j_a', data: { task: 'add rate limiting' } });
    await log.append({ type: 'job-start', job: 'j_b', data: { task: 'other' } });
    await log.append({ type: 'merge-end', job: 'j_a', data: { commit: 'c'.repeat(40) } });
    await log.close();
    const events: AuditEvent[] = [];
    for await (const event of readAuditEvents(path, { job: 'j_a' })) events.push(event);
    return events;
  }

  it("signs an in-toto Statement v1 over a job's events into a DSSE envelope that verifies", async () => {
    const events = await jobEvents();
    expect(events.map((event) => event.seq)).toEqual([1, 3]);
    const key = createSigningKey(join(directory(), 'home'));
    const subject = [{ name: 'main', digest: { gitCommit: 'c'.repeat(40) } }];
    const envelope = exportAttestation({
      events,
      subject,
      predicate: { job: 'j_a' },
      key,
      logId: 'f'.repeat(32),
    });
    expect(envelope.payloadType).toBe(IN_TOTO_PAYLOAD_TYPE);
    expect(envelope.signatures).toEqual([{ keyid: key.keyId, sig: expect.any(String) }]);
    // The signature covers the PAE, as stock DSSE verifiers expect.
    const pae = preAuthEncoding(envelope.payloadType, Buffer.from(envelope.payload, 'base64'));
    expect(verify(null, pae, key.publicKey, Buffer.from(envelope.signatures[0]!.sig, 'base64'))).toBe(true);
    const verified = verifyAttestation(envelope, key.publicKeyPath!);
    expect(verified.ok).toBe(true);
    if (!verified.ok) return;
    expect(verified.statement._type).toBe(IN_TOTO_STATEMENT_TYPE);
    expect(verified.statement.subject).toEqual(subject);
    expect(verified.statement.predicate).toMatchObject({
      job: 'j_a',
      audit: { log_id: 'f'.repeat(32), first_seq: 1, last_seq: 3, events },
    });
  });

  it('rejects a changed subject, another key, and an embedded event whose hash no longer matches', async () => {
    const events = await jobEvents();
    const key = createSigningKey(join(directory(), 'home'));
    const subject = [{ name: 'main', digest: { gitCommit: 'c'.repeat(40) } }];
    const envelope = exportAttestation({ events, subject, key });
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString());
    statement.subject[0].digest.gitCommit = 'd'.repeat(40);
    const changed = { ...envelope, payload: Buffer.from(JSON.stringify(statement)).toString('base64') };
    expect(verifyAttestation(changed, key.publicKey)).toMatchObject({ ok: false });
    expect(verifyAttestation(envelope, createSigningKey(join(directory(), 'other')).publicKey).ok).toBe(
      false,
    );
    const tampered = [{ ...events[0]!, data: { task: 'something else' } }, events[1]!];
    expect(() => exportAttestation({ events: tampered, subject, key })).toThrow(/hash does not match/);
    expect(() => exportAttestation({ events, subject: [], key })).toThrow(AuditOptionsError);
  });
});
