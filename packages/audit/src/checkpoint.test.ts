import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from './audit-event.js';
import { signCheckpoint } from './checkpoint.js';
import { appendCheckpoint, readCheckpoints } from './checkpoint-store.js';
import {
  CHECKPOINT_TRAILER_KEY,
  formatCheckpointTrailer,
  parseCheckpointTrailer,
} from './checkpoint-trailer.js';
import { AuditCheckpointError } from './errors.js';
import { serializeEvent } from './event-hash.js';
import { openAuditLog } from './open-audit-log.js';
import { createSigningKey } from './signing-key.js';
import { useTemporaryDirectory } from './testing/temporary-directory.js';
import { testRepository } from './testing/test-repository.js';
import { readLines, writeLines } from './testing/write-test-log.js';
import { verifyAuditLog } from './verify-audit-log.js';

describe('signed checkpoints', () => {
  const directory = useTemporaryDirectory();

  /** A log of 8 events with a checkpoint at size 6 and two more events after it. */
  async function anchoredLog() {
    const path = join(directory(), 'audit.log');
    const key = createSigningKey(join(directory(), 'home'));
    const log = await openAuditLog(path, { repository: testRepository });
    for (let index = 1; index <= 5; index++) await log.append({ type: 'step-run', data: { index } });
    const checkpoint = await log.checkpoint(key);
    for (let index = 6; index <= 7; index++) await log.append({ type: 'step-run', data: { index } });
    await log.close();
    return { path, key, checkpoint, lines: readLines(path) };
  }

  it('signs {log id, size, head hash} of the log, and the log verifies against it', async () => {
    const { path, key, checkpoint, lines } = await anchoredLog();
    expect(checkpoint.size).toBe(6);
    expect(checkpoint.head_hash).toBe((JSON.parse(lines[5]!) as AuditEvent).hash);
    expect(checkpoint.key_id).toBe(key.keyId);
    const result = await verifyAuditLog(path, { checkpoints: [checkpoint], publicKey: key.publicKeyPath! });
    expect(result).toMatchObject({ ok: true, events: 8, checkpointsVerified: 1 });
  });

  it('catches a truncated tail through the checkpoint (E_TRUNCATED), which the chain alone cannot see', async () => {
    const { path, key, checkpoint, lines } = await anchoredLog();
    writeLines(path, lines.slice(0, 4));
    expect((await verifyAuditLog(path)).ok).toBe(true);
    const result = await verifyAuditLog(path, { checkpoints: [checkpoint], publicKey: key.publicKey });
    expect(result.ok).toBe(false);
    expect(result.failure).toMatchObject({ code: 'E_TRUNCATED', seq: 4, checkpoint: 0 });
    expect(result.failure?.reason).toContain('covers 6 events, the log holds only 4');
  });

  it('catches a same-length rewrite of the anchored events (E_CKPT_MISMATCH) that the chain alone accepts', async () => {
    const { path, key, checkpoint, lines } = await anchoredLog();
    // Rewrite seq 3.. consistently, rehashing every event: the chain is valid again, same length.
    const rewritten = lines.slice(0, 3);
    let prev = (JSON.parse(lines[2]!) as AuditEvent).hash;
    for (const line of lines.slice(3)) {
      const { hash: _old, ...event } = JSON.parse(line) as AuditEvent;
      const serialized = serializeEvent({ ...event, prev, data: { ...event.data, forged: true } });
      rewritten.push(serialized.line);
      prev = serialized.hash;
    }
    writeLines(path, rewritten);
    expect(await verifyAuditLog(path)).toMatchObject({ ok: true, events: 8 });
    const result = await verifyAuditLog(path, { checkpoints: [checkpoint], publicKey: key.publicKey });
    expect(result.failure).toMatchObject({ code: 'E_CKPT_MISMATCH', line: 6, seq: 5, checkpoint: 0 });
  });

  it('refuses a forged or foreign checkpoint: bad signature, unknown key, no key, another log', async () => {
    const { path, key, checkpoint } = await anchoredLog();
    const forged = { ...checkpoint, size: 7, head_hash: 'a'.repeat(64) };
    expect(
      (await verifyAuditLog(path, { checkpoints: [forged], publicKey: key.publicKey })).failure,
    ).toMatchObject({
      code: 'E_CKPT_SIG',
      checkpoint: 0,
    });
    const otherKey = createSigningKey(join(directory(), 'other-home'));
    const byOtherKey = await verifyAuditLog(path, {
      checkpoints: [checkpoint],
      publicKey: otherKey.publicKey,
    });
    expect(byOtherKey.failure?.code).toBe('E_CKPT_SIG');
    expect((await verifyAuditLog(path, { checkpoints: [checkpoint] })).failure?.code).toBe('E_CKPT_SIG');
    // Several keys (a rotation): the one the checkpoint names is used.
    const both = await verifyAuditLog(path, {
      checkpoints: [checkpoint],
      publicKey: [otherKey.publicKey, key.publicKey],
    });
    expect(both.ok).toBe(true);
    const foreign = signCheckpoint({ logId: 'b'.repeat(32), size: 2, headHash: checkpoint.head_hash }, key);
    expect(
      (await verifyAuditLog(path, { checkpoints: [foreign], publicKey: key.publicKey })).failure,
    ).toMatchObject({
      code: 'E_LOG_ID',
      line: 1,
    });
  });

  it('round-trips through a one-line commit trailer', async () => {
    const { checkpoint } = await anchoredLog();
    const trailer = formatCheckpointTrailer(checkpoint);
    expect(trailer.startsWith(`${CHECKPOINT_TRAILER_KEY}: `)).toBe(true);
    expect(trailer).not.toContain('\n');
    expect(trailer.split(': ')[1]).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(parseCheckpointTrailer(trailer)).toEqual(checkpoint);
    expect(parseCheckpointTrailer(trailer.split(': ')[1]!)).toEqual(checkpoint);
    expect(() => parseCheckpointTrailer(`${CHECKPOINT_TRAILER_KEY}: not base64!`)).toThrow(
      AuditCheckpointError,
    );
    const incomplete = Buffer.from(JSON.stringify({ ...checkpoint, sig: undefined })).toString('base64url');
    expect(() => parseCheckpointTrailer(incomplete)).toThrow(/sig is missing/);
  });

  it('keeps checkpoints in an append-only store that ignores a torn last line', async () => {
    const { path, key, checkpoint } = await anchoredLog();
    const store = join(directory(), 'home', 'checkpoints.jsonl');
    expect(readCheckpoints(store)).toEqual([]);
    appendCheckpoint(store, checkpoint);
    const log = await openAuditLog(path);
    const second = await log.checkpoint(key, { store });
    await log.close();
    expect(second.size).toBe(8);
    const { appendFileSync } = await import('node:fs');
    appendFileSync(store, '{"log_id":"ab');
    const stored = readCheckpoints(store);
    expect(stored).toEqual([checkpoint, second]);
    expect(await verifyAuditLog(path, { checkpoints: stored, publicKey: key.publicKey })).toMatchObject({
      ok: true,
      checkpointsVerified: 2,
    });
  });
});
