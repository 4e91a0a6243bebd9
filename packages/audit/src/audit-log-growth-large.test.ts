import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from './audit-event.js';
import { serializeEvent } from './event-hash.js';
import { openAuditLog } from './open-audit-log.js';
import { type AuditLogSnapshot, RECENT_BYTES, snapshotAuditLog } from './snapshot-audit-log.js';
import { spawnAppendWorker, waitForExit } from './testing/spawn-worker.js';
import { useTemporaryDirectory } from './testing/temporary-directory.js';
import { readLines, writeLargeTestLog } from './testing/write-test-log.js';
import { verifyAuditLog } from './verify-audit-log.js';
import { verifyAuditLogGrowth } from './verify-audit-log-growth.js';
import { mayHaveBeenRewritten } from './written-since.js';

/** Overwrites `from` with `to` (same length) where it first occurs, in place: same file, same size. */
function rewriteInPlace(path: string, from: string, to: string): number {
  expect(Buffer.byteLength(to)).toBe(Buffer.byteLength(from));
  const offset = readFileSync(path).indexOf(from);
  expect(offset).toBeGreaterThanOrEqual(0);
  const descriptor = openSync(path, 'r+');
  try {
    writeSync(descriptor, to, offset);
  } finally {
    closeSync(descriptor);
  }
  return offset;
}

/** Sets the modification time back to the nanosecond, as `touch -d` lets anyone do. */
function restoreModificationTime(path: string, mtimeNs: bigint): void {
  const seconds = mtimeNs / 1_000_000_000n;
  const nanoseconds = (mtimeNs % 1_000_000_000n).toString().padStart(9, '0');
  execFileSync('touch', ['-m', '-d', `@${seconds}.${nanoseconds}`, path]);
}

/** Appends the valid next event by hand, as a forger who knows the format can. */
function appendNextEvent(path: string): void {
  const head = JSON.parse(readLines(path).at(-1)!) as AuditEvent;
  const { line } = serializeEvent({
    v: 1,
    seq: head.seq + 1,
    ts: new Date().toISOString(),
    type: 'step-run',
    actor: 'snodo',
    data: { note: 'looks like another job' },
    prev: head.hash,
  });
  appendFileSync(path, `${line}\n`);
}

function deepInTheLog(offset: number, snapshot: AuditLogSnapshot): void {
  // The edit lies between the bytes the snapshot digested: only the change time can give it away.
  expect(offset).toBeGreaterThan(snapshot.firstLine.length);
  expect(offset).toBeLessThan(snapshot.lastBytes.offset);
}

describe('verifyAuditLogGrowth on a log longer than a snapshot digests', () => {
  const directory = useTemporaryDirectory();
  const logPath = (): string => join(directory(), 'audit.log');
  const events = 3000;

  it('digests only the first line and the last bytes', async () => {
    await writeLargeTestLog(logPath(), events);
    const snapshot = await snapshotAuditLog(logPath());
    expect(snapshot.size).toBeGreaterThan(3 * RECENT_BYTES);
    expect(snapshot.lastBytes.length).toBeLessThan(RECENT_BYTES + 1024);
    expect(snapshot).toMatchObject({ head: { seq: events - 1 }, settled: true });
    expect(mayHaveBeenRewritten(snapshot, statSync(logPath(), { bigint: true }))).toBe(false);
    expect(await verifyAuditLogGrowth(logPath(), snapshot)).toEqual({ ok: true, appended: [] });
  });

  it('catches a rewrite deep in the log made right after the snapshot, keeping size and modification time', async () => {
    await writeLargeTestLog(logPath(), events);
    const snapshot = await snapshotAuditLog(logPath());
    const before = statSync(logPath(), { bigint: true });
    const offset = rewriteInPlace(logPath(), '"note":"step 10"}', '"note":"step 99"}');
    restoreModificationTime(logPath(), before.mtimeNs);
    const after = statSync(logPath(), { bigint: true });
    expect([after.size, after.mtimeNs]).toEqual([before.size, before.mtimeNs]);
    deepInTheLog(offset, snapshot);

    const growth = await verifyAuditLogGrowth(logPath(), snapshot);
    expect(growth).toMatchObject({ ok: false, code: 'E_REWRITTEN' });
    if (!growth.ok) expect(growth.reason).toContain('rewritten in place at seq 10');
  });

  it('catches a deep rewrite whose modification time was set apart from its change time, after appends', async () => {
    await writeLargeTestLog(logPath(), events);
    const snapshot = await snapshotAuditLog(logPath());
    const log = await openAuditLog(logPath());
    await log.append({ type: 'step-run', data: { by: 'another job' } });
    await log.close();
    const stamped = statSync(logPath(), { bigint: true });
    const offset = rewriteInPlace(logPath(), '"note":"step 20"}', '"note":"step 77"}');
    deepInTheLog(offset, snapshot);
    restoreModificationTime(logPath(), stamped.mtimeNs);
    expect(await verifyAuditLogGrowth(logPath(), snapshot)).toMatchObject({ ok: false, code: 'E_REWRITTEN' });
  });

  it('catches a rewrite that re-chains every later event, behind valid appends, by its head', async () => {
    await writeLargeTestLog(logPath(), events);
    const snapshot = await snapshotAuditLog(logPath());
    const lines = readLines(logPath());
    let prev = (JSON.parse(lines[9]!) as AuditEvent).hash;
    for (let index = 10; index < lines.length; index++) {
      const { hash: _old, ...body } = JSON.parse(lines[index]!) as AuditEvent;
      const data = index === 10 ? { ...body.data, note: 'step 66' } : body.data;
      const rendered = serializeEvent({ ...body, data, prev });
      lines[index] = rendered.line;
      prev = rendered.hash;
    }
    // Rewritten through the same file, then an appended event chaining from the forged head.
    writeFileSync(logPath(), lines.map((line) => `${line}\n`).join(''));
    const log = await openAuditLog(logPath());
    await log.append({ type: 'step-run', data: { by: 'the forger' } });
    await log.close();
    expect((await verifyAuditLog(logPath())).ok).toBe(true);

    const growth = await verifyAuditLogGrowth(logPath(), snapshot);
    expect(growth).toMatchObject({ ok: false, code: 'E_REWRITTEN' });
    if (!growth.ok) expect(growth.reason).toContain(`bytes ${snapshot.lastBytes.offset}`);
  });

  it('catches a rewritten genesis line even when only appends seem to have happened', async () => {
    await writeLargeTestLog(logPath(), events);
    const snapshot = await snapshotAuditLog(logPath());
    const genesis = readLines(logPath())[0]!;
    rewriteInPlace(logPath(), genesis.slice(0, 40), genesis.slice(0, 39) + (genesis[39] === 'a' ? 'b' : 'a'));
    appendNextEvent(logPath());
    const growth = await verifyAuditLogGrowth(logPath(), snapshot);
    expect(growth).toMatchObject({ ok: false, code: 'E_REWRITTEN' });
    if (!growth.ok) expect(growth.reason).toContain('genesis line');
  });

  it('reads the log again when the snapshot could not rely on its change time (same clock tick)', async () => {
    await writeLargeTestLog(logPath(), events);
    const snapshot = await snapshotAuditLog(logPath());
    const offset = rewriteInPlace(logPath(), '"note":"step 30"}', '"note":"step 33"}');
    deepInTheLog(offset, snapshot);
    // As if the snapshot had been taken within the tick of this write: the times match the file's now.
    const now = statSync(logPath(), { bigint: true });
    const sameTick = { ...snapshot, changed: now.ctimeNs.toString(), modified: now.mtimeNs.toString() };
    expect(await verifyAuditLogGrowth(logPath(), { ...sameTick, settled: false })).toMatchObject({
      ok: false,
      code: 'E_REWRITTEN',
    });
  });

  it('accepts appends by another process without reading the log again', async () => {
    await writeLargeTestLog(logPath(), events);
    const snapshot = await snapshotAuditLog(logPath());
    const worker = spawnAppendWorker(logPath(), 5, 'other-job');
    expect(await waitForExit(worker)).toMatchObject({ code: 0 });
    expect(mayHaveBeenRewritten(snapshot, statSync(logPath(), { bigint: true }))).toBe(false);
    const growth = await verifyAuditLogGrowth(logPath(), snapshot);
    expect(growth.ok && growth.appended.map((event) => [event.seq, event.actor])).toEqual(
      [0, 1, 2, 3, 4].map((index) => [events + index, 'other-job']),
    );
    expect(growth.ok && growth.appended[0]?.type).toBe('worker-append');
  });
});
