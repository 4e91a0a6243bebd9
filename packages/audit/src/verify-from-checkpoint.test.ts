import { appendFileSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from './audit-event.js';
import { locateEvent } from './locate-event.js';
import { openAuditLog } from './open-audit-log.js';
import { createSigningKey } from './signing-key.js';
import { useTemporaryDirectory } from './testing/temporary-directory.js';
import { testRepository } from './testing/test-repository.js';
import { readLines, writeLines } from './testing/write-test-log.js';
import { verifyAuditLog } from './verify-audit-log.js';
import { verifyAuditLogFromCheckpoint } from './verify-from-checkpoint.js';

describe('verifying from the newest checkpoint', () => {
  const directory = useTemporaryDirectory();

  /** A log of `before + 1 + after` events, checkpointed after `before` appends, lines of varied length. */
  async function anchoredLog(before = 40, after = 5, name = 'a') {
    mkdirSync(join(directory(), name));
    const path = join(directory(), name, 'audit.log');
    const key = createSigningKey(join(directory(), name, 'home'));
    const log = await openAuditLog(path, { repository: testRepository });
    const note = (index: number) => 'x'.repeat((index * 37) % 300);
    for (let index = 1; index <= before; index++)
      await log.append({ type: 'step-run', data: { index, note: note(index) } });
    const checkpoint = await log.checkpoint(key);
    for (let index = 1; index <= after; index++)
      await log.append({ type: 'step-run', data: { index, note: note(index) } });
    await log.close();
    return { path, key, checkpoint, lines: readLines(path) };
  }

  it('finds every event of a log by bisection, and nothing past its end', async () => {
    const { path, lines } = await anchoredLog(60, 0);
    const descriptor = openSync(path, 'r');
    try {
      for (let seq = 0; seq < lines.length; seq++) {
        expect(locateEvent(descriptor, seq)?.event.hash).toBe((JSON.parse(lines[seq]!) as AuditEvent).hash);
      }
      expect(locateEvent(descriptor, lines.length)).toBeUndefined();
    } finally {
      closeSync(descriptor);
    }
  });

  it('reads only the tail after the checkpoint, and counts every event', async () => {
    const { path, key, checkpoint } = await anchoredLog();
    const result = await verifyAuditLogFromCheckpoint(path, {
      checkpoints: [checkpoint],
      publicKey: key.publicKey,
    });
    expect(result).toMatchObject({ ok: true, events: 46, headSeq: 45, checkpointsVerified: 1 });
    expect(result.verifiedFrom?.seq).toBe(40);
    expect(result.lines).toBe(5);
  });

  it('still refuses an edited line after the checkpoint', async () => {
    const { path, key, checkpoint, lines } = await anchoredLog();
    lines[43] = lines[43]!.replace('"index":3', '"index":4');
    writeLines(path, lines);
    const result = await verifyAuditLogFromCheckpoint(path, {
      checkpoints: [checkpoint],
      publicKey: key.publicKey,
    });
    expect(result.failure).toMatchObject({ code: 'E_HASH', seq: 43 });
  });

  it('falls back to the full verification for a cut tail and a rewritten anchor, reporting as it does', async () => {
    const cut = await anchoredLog();
    writeLines(cut.path, cut.lines.slice(0, 30));
    const truncated = await verifyAuditLogFromCheckpoint(cut.path, {
      checkpoints: [cut.checkpoint],
      publicKey: cut.key.publicKey,
    });
    expect(truncated.failure).toMatchObject({ code: 'E_TRUNCATED' });
    expect(truncated.verifiedFrom).toBeUndefined();

    const rewritten = await anchoredLog(40, 5, 'b');
    const lines = rewritten.lines.slice(0, 40);
    writeLines(rewritten.path, lines);
    const log = await openAuditLog(rewritten.path, { repository: testRepository });
    await log.append({ type: 'step-run', data: { index: 999 } });
    await log.close();
    const mismatch = await verifyAuditLogFromCheckpoint(rewritten.path, {
      checkpoints: [rewritten.checkpoint],
      publicKey: rewritten.key.publicKey,
    });
    expect(mismatch.failure).toMatchObject({ code: 'E_CKPT_MISMATCH', seq: 40 });
  });

  it('refuses a checkpoint whose signature does not verify before trusting it', async () => {
    const { path, checkpoint } = await anchoredLog();
    const other = createSigningKey(join(directory(), 'other-home'));
    const result = await verifyAuditLogFromCheckpoint(path, {
      checkpoints: [checkpoint],
      publicKey: other.publicKey,
    });
    expect(result.failure).toMatchObject({ code: 'E_CKPT_SIG' });
  });

  it('opens for appending from the checkpoint, and a full verify still reads every line', async () => {
    const { path, key, checkpoint, lines } = await anchoredLog();
    // A torn write after the checkpoint is recovered as usual.
    appendFileSync(path, '{"torn":');
    const log = await openAuditLog(path, { checkpoints: [checkpoint], publicKey: key.publicKey });
    expect(log.verification).toMatchObject({ ok: true, events: lines.length });
    await log.append({ type: 'step-run', data: { index: 1000 } });
    await log.close();
    const full = await verifyAuditLog(path, { checkpoints: [checkpoint], publicKey: key.publicKey });
    expect(full).toMatchObject({ ok: true, events: lines.length + 2 });
  });

  it('leaves an edit inside the signed prefix to the full verification, which names it', async () => {
    const { path, key, checkpoint, lines } = await anchoredLog();
    lines[10] = lines[10]!.replace('"index":10', '"index":11');
    writeLines(path, lines);
    const options = { checkpoints: [checkpoint], publicKey: key.publicKey };
    expect((await verifyAuditLogFromCheckpoint(path, options)).ok).toBe(true);
    expect((await verifyAuditLog(path, options)).failure).toMatchObject({ code: 'E_HASH', seq: 10 });
  });
});
