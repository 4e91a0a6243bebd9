import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from './audit-event.js';
import { ChainVerifier } from './chain-verifier.js';
import { AuditFileError } from './errors.js';
import { serializeEvent } from './event-hash.js';
import { LineScanner } from './line-scanner.js';
import { useTemporaryDirectory } from './testing/temporary-directory.js';
import { readLines, writeLines, writeTestLog } from './testing/write-test-log.js';
import { verifyAuditLog } from './verify-audit-log.js';

/** Re-serialises an event with a valid hash, as a forger without any key can. */
function rehash(event: Omit<AuditEvent, 'hash'> & { hash?: string }): string {
  const { hash: _ignored, ...body } = event;
  return serializeEvent(body).line;
}

describe('verifyAuditLog', () => {
  const directory = useTemporaryDirectory();
  const logPath = (): string => join(directory(), 'audit.log');

  it('accepts an intact log and reports its size, head and log id', async () => {
    const lines = await writeTestLog(logPath(), 10);
    const result = await verifyAuditLog(logPath());
    const last = JSON.parse(lines[9]!) as AuditEvent;
    expect(result).toMatchObject({
      ok: true,
      events: 10,
      lines: 10,
      headSeq: 9,
      headHash: last.hash,
      warnings: [],
    });
    expect(result.logId).toBe((JSON.parse(lines[0]!) as AuditEvent).data.log_id);
    expect(result.failure).toBeUndefined();
  });

  it('catches edited data as E_HASH at that line and seq, with its byte offset', async () => {
    const lines = await writeTestLog(logPath(), 6);
    lines[3] = lines[3]!.replace('"step 3"', '"step X"');
    writeLines(logPath(), lines);
    const result = await verifyAuditLog(logPath());
    const offset = lines.slice(0, 3).reduce((total, line) => total + Buffer.byteLength(line) + 1, 0);
    expect(result).toMatchObject({
      ok: false,
      events: 3,
      failure: { code: 'E_HASH', line: 4, seq: 3, byteOffset: offset },
    });
  });

  it('catches an edited hash field as E_HASH', async () => {
    const lines = await writeTestLog(logPath(), 6);
    const event = JSON.parse(lines[2]!) as AuditEvent;
    lines[2] = lines[2]!.replace(event.hash, 'f'.repeat(64));
    writeLines(logPath(), lines);
    expect((await verifyAuditLog(logPath())).failure).toMatchObject({ code: 'E_HASH', line: 3, seq: 2 });
  });

  it('catches an edit that was rehashed as E_LINK at the next line', async () => {
    const lines = await writeTestLog(logPath(), 6);
    const event = JSON.parse(lines[2]!) as AuditEvent;
    lines[2] = rehash({ ...event, data: { ...event.data, note: 'rewritten' } });
    writeLines(logPath(), lines);
    expect((await verifyAuditLog(logPath())).failure).toMatchObject({ code: 'E_LINK', line: 4, seq: 3 });
  });

  it('catches a deleted line as E_SEQ', async () => {
    const lines = await writeTestLog(logPath(), 6);
    lines.splice(3, 1);
    writeLines(logPath(), lines);
    const failure = (await verifyAuditLog(logPath())).failure;
    expect(failure).toMatchObject({ code: 'E_SEQ', line: 4, seq: 4 });
    expect(failure?.reason).toContain('expected seq 3, found 4');
  });

  it('catches an inserted line (a copy, and a forged event with a valid hash) as E_SEQ', async () => {
    const lines = await writeTestLog(logPath(), 6);
    writeLines(logPath(), [...lines.slice(0, 4), lines[2]!, ...lines.slice(4)]);
    expect((await verifyAuditLog(logPath())).failure).toMatchObject({ code: 'E_SEQ', line: 5, seq: 2 });

    const previous = JSON.parse(lines[3]!) as AuditEvent;
    const forged = rehash({ ...previous, seq: 4, prev: previous.hash, type: 'human-approve', data: {} });
    writeLines(logPath(), [...lines.slice(0, 4), forged, ...lines.slice(4)]);
    expect((await verifyAuditLog(logPath())).failure).toMatchObject({ code: 'E_SEQ', line: 6, seq: 4 });
  });

  it('catches reordered lines as E_SEQ at the first moved line', async () => {
    const lines = await writeTestLog(logPath(), 6);
    writeLines(logPath(), [lines[0]!, lines[1]!, lines[3]!, lines[2]!, lines[4]!, lines[5]!]);
    expect((await verifyAuditLog(logPath())).failure).toMatchObject({ code: 'E_SEQ', line: 3, seq: 3 });
  });

  it('reports unparseable lines as E_PARSE and missing fields as E_FIELD', async () => {
    const lines = await writeTestLog(logPath(), 4);
    writeLines(logPath(), [...lines.slice(0, 2), '{"not json', ...lines.slice(2)]);
    expect((await verifyAuditLog(logPath())).failure).toMatchObject({ code: 'E_PARSE', line: 3, seq: 2 });

    const event = JSON.parse(lines[2]!) as Record<string, unknown>;
    delete event.actor;
    writeLines(logPath(), [...lines.slice(0, 2), JSON.stringify(event), ...lines.slice(3)]);
    const failure = (await verifyAuditLog(logPath())).failure;
    expect(failure).toMatchObject({ code: 'E_FIELD', line: 3, seq: 2 });
    expect(failure?.reason).toContain('actor');
  });

  it('refuses a float in data (E_FIELD) even when the forger hashed it', async () => {
    const lines = await writeTestLog(logPath(), 3);
    const event = JSON.parse(lines[2]!) as AuditEvent;
    // serializeEvent refuses floats, so forge the line with a float-tolerant canonicaliser's output.
    lines[2] = lines[2]!.replace('"index":2', '"index":2.5');
    writeLines(logPath(), lines);
    const failure = (await verifyAuditLog(logPath())).failure;
    expect(failure).toMatchObject({ code: 'E_FIELD', line: 3, seq: event.seq });
    expect(failure?.reason).toContain('2.5');
  });

  it('refuses a line that is not in canonical form, even with a matching hash', async () => {
    const lines = await writeTestLog(logPath(), 3);
    lines[1] = JSON.stringify(JSON.parse(lines[1]!), null, 1).replace(/\n/g, '');
    writeLines(logPath(), lines);
    expect((await verifyAuditLog(logPath())).failure).toMatchObject({ code: 'E_PARSE', line: 2, seq: 1 });
  });

  it('refuses a bad genesis and a second genesis spliced in from another log (E_GENESIS)', async () => {
    const lines = await writeTestLog(logPath(), 3);
    const genesis = JSON.parse(lines[0]!) as AuditEvent;
    writeLines(logPath(), [rehash({ ...genesis, type: 'job-start' }), ...lines.slice(1)]);
    expect((await verifyAuditLog(logPath())).failure).toMatchObject({ code: 'E_GENESIS', line: 1, seq: 0 });

    const otherPath = join(directory(), 'other.log');
    const other = await writeTestLog(otherPath, 2);
    writeLines(logPath(), [...lines, ...other]);
    expect((await verifyAuditLog(logPath())).failure).toMatchObject({ code: 'E_GENESIS', line: 4, seq: 0 });
  });

  it('reports an empty log as E_GENESIS and a missing one as AuditFileError', async () => {
    await writeFile(logPath(), '');
    expect((await verifyAuditLog(logPath())).failure).toMatchObject({ code: 'E_GENESIS' });
    await expect(verifyAuditLog(join(directory(), 'missing.log'))).rejects.toSatisfy(
      AuditFileError.isInstance,
    );
  });

  it('verifies lines longer than its read buffer', async () => {
    const lines = await writeTestLog(logPath(), 3);
    const event = JSON.parse(lines[2]!) as AuditEvent;
    const long = rehash({ ...event, seq: 3, prev: event.hash, data: { blob: 'x'.repeat(3 * 1024 * 1024) } });
    writeLines(logPath(), [...lines, long]);
    expect(await verifyAuditLog(logPath())).toMatchObject({ ok: true, events: 4 });
  });

  it('gives the same verdict however the file is cut into chunks', async () => {
    const lines = await writeTestLog(logPath(), 20);
    lines[13] = lines[13]!.replace('"step 13"', '"step 99"');
    writeLines(logPath(), lines);
    const expected = await verifyAuditLog(logPath());
    for (const chunkBytes of [1, 7, 64, 333]) {
      const handle = await open(logPath(), 'r');
      try {
        const verifier = new ChainVerifier();
        const scanner = new LineScanner(handle, chunkBytes);
        while (await scanner.next((bytes, offset, terminated) => verifier.push(bytes, offset, terminated))) {
          // keep reading
        }
        verifier.finish();
        expect(verifier.result(), `chunk ${chunkBytes}`).toEqual(expected);
      } finally {
        await handle.close();
      }
    }
    expect(expected.failure).toMatchObject({ code: 'E_HASH', line: 14, seq: 13 });
    expect(readLines(logPath())).toHaveLength(20);
  });
});
