import { appendFileSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from './audit-event.js';
import { AuditChainError } from './errors/audit-chain-error.js';
import { AuditEventError } from './errors/audit-event-error.js';
import { AuditWriteError } from './errors/audit-write-error.js';
import { AuditOptionsError } from './errors.js';
import { openAuditLog } from './open-audit-log.js';
import { readAuditEvents } from './read-audit-events.js';
import { useTemporaryDirectory } from './testing/temporary-directory.js';
import { testRepository } from './testing/test-repository.js';
import { readLines, writeLines, writeTestLog } from './testing/write-test-log.js';
import { verifyAuditLog } from './verify-audit-log.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('openAuditLog and append', () => {
  const directory = useTemporaryDirectory();
  const logPath = (): string => join(directory(), '.snodo', 'audit.log');

  it('creates the log with a genesis event naming a random log id and the repository', async () => {
    const log = await openAuditLog(logPath(), { repository: testRepository, createdBy: 'snodo@0.1.0' });
    await log.close();
    const [line] = readLines(logPath());
    const genesis = JSON.parse(line!) as AuditEvent;
    expect(genesis).toMatchObject({ v: 1, seq: 0, type: 'log-create', prev: '0'.repeat(64) });
    expect(genesis.data).toEqual({
      log_id: log.logId,
      repository: testRepository,
      created_by: 'snodo@0.1.0',
    });
    expect(log.logId).toMatch(/^[0-9a-f]{32}$/);
    const other = await openAuditLog(join(directory(), 'other.log'), { repository: testRepository });
    await other.close();
    expect(other.logId).not.toBe(log.logId);
  });

  it('refuses to create a log without the repository identity', async () => {
    expect(await rejection(openAuditLog(logPath()))).toSatisfy(AuditOptionsError.isInstance);
  });

  it('appends chained events in call order, one canonical line each, and returns them as written', async () => {
    const log = await openAuditLog(logPath(), { repository: testRepository });
    const written = await Promise.all(
      Array.from({ length: 25 }, (_, index) => log.append({ type: 'step-run', job: 'j_1', data: { index } })),
    );
    await log.sync();
    await log.close();
    expect(written.map((event) => event.seq)).toEqual(Array.from({ length: 25 }, (_, index) => index + 1));
    expect(written.map((event) => event.data.index)).toEqual(Array.from({ length: 25 }, (_, index) => index));
    const lines = readLines(logPath());
    expect(lines.slice(1).map((line) => JSON.parse(line))).toEqual(written);
    expect(written[0]!.ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(await verifyAuditLog(logPath())).toMatchObject({ ok: true, events: 26 });
  });

  it('rejects floats, unsafe integers, non-JSON values and bad type names with typed errors, writing nothing', async () => {
    const log = await openAuditLog(logPath(), { repository: testRepository });
    const before = readFileSync(logPath(), 'utf8');
    const float = await rejection(log.append({ type: 'usage-report', data: { usage: { costUsd: 0.25 } } }));
    expect(AuditEventError.isInstance(float)).toBe(true);
    expect((float as AuditEventError).field).toBe('data.usage.costUsd');
    expect((float as Error).message).toContain('integers');
    expect(await rejection(log.append({ type: 'x-y', data: { big: 2 ** 60 } }))).toSatisfy(
      AuditEventError.isInstance,
    );
    expect(await rejection(log.append({ type: 'x-y', data: { when: new Date() } }))).toSatisfy(
      AuditEventError.isInstance,
    );
    expect(await rejection(log.append({ type: 'x-y', data: { list: [1, undefined] } }))).toSatisfy(
      AuditEventError.isInstance,
    );
    expect(await rejection(log.append({ type: 'Job_Start' }))).toSatisfy(AuditEventError.isInstance);
    expect(await rejection(log.append({ type: 'job.start' }))).toSatisfy(AuditEventError.isInstance);
    expect(await rejection(log.append({ type: 'log-create' }))).toSatisfy(AuditEventError.isInstance);
    expect(readFileSync(logPath(), 'utf8')).toBe(before);
    // The handle is still usable after rejected input.
    await log.append({ type: 'job-start', data: { optional: undefined, count: 2 } });
    await log.close();
    expect(JSON.parse(readLines(logPath())[1]!).data).toEqual({ count: 2 });
  });

  it('refuses a line over the size cap', async () => {
    const log = await openAuditLog(logPath(), { repository: testRepository, maxLineBytes: 2048 });
    const error = await rejection(log.append({ type: 'coder-output', data: { text: 'x'.repeat(4096) } }));
    expect(AuditEventError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/over the 2048-byte cap/);
    await log.close();
    expect(readLines(logPath())).toHaveLength(1);
  });

  it('refuses to open a log that does not verify, naming line, seq and reason', async () => {
    const lines = await writeTestLog(logPath(), 5);
    lines[2] = lines[2]!.replace('"step 2"', '"step two"');
    writeLines(logPath(), lines);
    const before = readFileSync(logPath(), 'utf8');
    const error = await rejection(openAuditLog(logPath()));
    expect(AuditChainError.isInstance(error)).toBe(true);
    expect((error as AuditChainError).failure).toMatchObject({ code: 'E_HASH', line: 3, seq: 2 });
    expect((error as Error).message).toContain('line 3, seq 2');
    expect((error as Error).message).toContain('snodo audit verify');
    expect(readFileSync(logPath(), 'utf8')).toBe(before);
  });

  it('refuses to append once the chain under an open handle stops verifying, and keeps refusing', async () => {
    const log = await openAuditLog(logPath(), { repository: testRepository });
    await log.append({ type: 'step-run', data: { index: 1 } });
    const lines = readLines(logPath());
    const original = lines[1]!;
    lines[1] = original.replace('"index":1', '"index":7');
    writeLines(logPath(), lines);
    const error = await rejection(log.append({ type: 'step-run', data: { index: 2 } }));
    expect(AuditChainError.isInstance(error)).toBe(true);
    expect((error as AuditChainError).failure).toMatchObject({ code: 'E_HASH', seq: 1 });
    expect(readLines(logPath())).toHaveLength(2);
    lines[1] = original;
    writeLines(logPath(), lines);
    expect(await rejection(log.append({ type: 'step-run', data: { index: 3 } }))).toSatisfy(
      AuditChainError.isInstance,
    );
    await log.close();
  });

  it('recovers a planted torn line at open: never truncated nor glued onto, followed by log-recover', async () => {
    await writeTestLog(logPath(), 3);
    const torn = '{"actor":"snodo","data":{"index":3,"note":"st';
    appendFileSync(logPath(), torn);
    const sizeWithFragment = statSync(logPath()).size;
    const log = await openAuditLog(logPath());
    expect(log.verification.warnings).toMatchObject([{ code: 'W_TORN', line: 4 }]);
    const event = await log.append({ type: 'step-run', data: { index: 4 } });
    await log.close();
    const text = readFileSync(logPath(), 'utf8');
    // The fragment is still there, byte for byte, and now ends a line of its own.
    expect(text.slice(sizeWithFragment - torn.length, sizeWithFragment + 1)).toBe(`${torn}\n`);
    const lines = readLines(logPath());
    const recover = JSON.parse(lines[4]!) as AuditEvent;
    expect(recover).toMatchObject({ type: 'log-recover', seq: 3 });
    expect(recover.data).toMatchObject({
      fragment: { offset: sizeWithFragment - torn.length, length: torn.length },
      completed: false,
    });
    expect(event.seq).toBe(4);
    const result = await verifyAuditLog(logPath());
    expect(result).toMatchObject({ ok: true, events: 5, lines: 6 });
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatchObject({ code: 'W_TORN', line: 4 });
  });

  it('detects a torn line that appears under an open handle at the next append', async () => {
    const log = await openAuditLog(logPath(), { repository: testRepository });
    await log.append({ type: 'step-run', data: { index: 1 } });
    appendFileSync(logPath(), '{"actor":"other-process","da');
    await log.append({ type: 'step-run', data: { index: 2 } });
    await log.close();
    const result = await verifyAuditLog(logPath());
    expect(result).toMatchObject({ ok: true, events: 4, warnings: [{ code: 'W_TORN', line: 3 }] });
  });

  it('completes a last event that only lacks its newline instead of discarding it', async () => {
    const lines = await writeTestLog(logPath(), 3);
    const log = await openAuditLog(logPath());
    await log.append({ type: 'step-run', data: { index: 3 } });
    await log.close();
    const withLast = readLines(logPath());
    writeFileSync(logPath(), `${[...lines, withLast[3]!].join('\n')}`);
    const reopened = await openAuditLog(logPath());
    const next = await reopened.append({ type: 'step-run', data: { index: 5 } });
    await reopened.close();
    const events = readLines(logPath()).map((line) => JSON.parse(line) as AuditEvent);
    expect(events.map((event) => event.type)).toEqual([
      'log-create',
      'step-run',
      'step-run',
      'step-run',
      'log-recover',
      'step-run',
    ]);
    expect(events[4]!.data).toMatchObject({ completed: true });
    expect(next.seq).toBe(5);
    expect(await verifyAuditLog(logPath())).toMatchObject({ ok: true, events: 6 });
  });

  it('refuses to append when the file was replaced since it was opened', async () => {
    const log = await openAuditLog(logPath(), { repository: testRepository });
    renameSync(logPath(), `${logPath()}.moved`);
    await writeTestLog(logPath(), 2);
    const error = await rejection(log.append({ type: 'step-run' }));
    expect(AuditWriteError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('removed or replaced');
    await log.close();
  });

  it('refuses calls after close', async () => {
    const log = await openAuditLog(logPath(), { repository: testRepository });
    await log.close();
    expect(await rejection(log.append({ type: 'step-run' }))).toSatisfy(AuditWriteError.isInstance);
  });

  it('reads events back, filtered by job, and stops loudly at the first bad line', async () => {
    const log = await openAuditLog(logPath(), { repository: testRepository });
    await log.append({ type: 'job-start', job: 'j_a' });
    await log.append({ type: 'job-start', job: 'j_b' });
    await log.append({ type: 'job-end', job: 'j_a' });
    await log.close();
    const seen: number[] = [];
    for await (const event of readAuditEvents(logPath(), { job: 'j_a' })) seen.push(event.seq);
    expect(seen).toEqual([1, 3]);
    const lines = readLines(logPath());
    writeLines(logPath(), [lines[0]!, lines[1]!, lines[3]!]);
    const read: number[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of readAuditEvents(logPath())) read.push(event.seq);
      })(),
    );
    expect(read).toEqual([0, 1]);
    expect((error as AuditChainError).failure).toMatchObject({ code: 'E_SEQ', line: 3 });
  });
});
