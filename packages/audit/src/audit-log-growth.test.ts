import {
  appendFileSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAuditLog } from './open-audit-log.js';
import { snapshotAuditLog } from './snapshot-audit-log.js';
import { spawnAppendWorker, waitForExit, waitForLine } from './testing/spawn-worker.js';
import { useTemporaryDirectory } from './testing/temporary-directory.js';
import { readLines, writeTestLog } from './testing/write-test-log.js';
import { verifyAuditLogGrowth } from './verify-audit-log-growth.js';

describe('snapshotAuditLog and verifyAuditLogGrowth', () => {
  const directory = useTemporaryDirectory();
  const logPath = (): string => join(directory(), 'audit.log');

  it('accepts valid appends by another OS process, while it writes and after it was killed mid-line', {
    timeout: 60_000,
  }, async () => {
    await writeTestLog(logPath(), 5);
    const snapshot = await snapshotAuditLog(logPath());
    expect(snapshot).toMatchObject({ exists: true, head: { seq: 4 } });
    const worker = spawnAppendWorker(logPath(), 'forever', 'other-job');
    const exited = waitForExit(worker);
    await waitForLine(worker, 'ready');
    // Checked while the other process keeps appending: a line being written is not a finding.
    for (let round = 0; round < 5; round++) {
      const growth = await verifyAuditLogGrowth(logPath(), snapshot);
      expect(growth, JSON.stringify(growth)).toMatchObject({ ok: true });
    }
    worker.kill('SIGKILL');
    await exited;
    const during = await verifyAuditLogGrowth(logPath(), snapshot);
    expect(during.ok).toBe(true);
    // The next writer recovers a torn line, if the kill left one: still only valid growth.
    const log = await openAuditLog(logPath());
    await log.append({ type: 'job-resume', data: {} });
    await log.close();
    const after = await verifyAuditLogGrowth(logPath(), snapshot);
    expect(after.ok).toBe(true);
    if (after.ok) {
      expect(after.appended[0]?.seq).toBe(5);
      expect(after.appended.some((event) => event.actor === 'other-job')).toBe(true);
      expect(after.appended.at(-1)?.type).toBe('job-resume');
    }
  });

  it('accepts growth from a snapshot that ended in a torn line, once its log-recover follows', async () => {
    await writeTestLog(logPath(), 3);
    appendFileSync(logPath(), '{"v":1,"seq":3,"ts":"2025-');
    const snapshot = await snapshotAuditLog(logPath());
    expect(snapshot.head?.seq).toBe(2);
    const log = await openAuditLog(logPath());
    await log.append({ type: 'step-run', data: {} });
    await log.close();
    const growth = await verifyAuditLogGrowth(logPath(), snapshot);
    expect(growth.ok).toBe(true);
    if (growth.ok) expect(growth.appended.map((event) => event.type)).toEqual(['log-recover', 'step-run']);
  });

  it('rejects a rewrite of an earlier line that keeps the file the same length', async () => {
    const lines = await writeTestLog(logPath(), 8);
    const snapshot = await snapshotAuditLog(logPath());
    const edited = readFileSync(logPath(), 'utf8').replace('"note":"step 2"', '"note":"step 9"');
    expect(edited).not.toBe(readFileSync(logPath(), 'utf8'));
    writeFileSync(logPath(), edited);
    expect(statSync(logPath()).size).toBe(snapshot.size);
    expect(lines).toHaveLength(8);
    expect(await verifyAuditLogGrowth(logPath(), snapshot)).toMatchObject({ ok: false, code: 'E_REWRITTEN' });
  });

  it('rejects a cut tail, naming the lost events', async () => {
    const lines = await writeTestLog(logPath(), 10);
    const snapshot = await snapshotAuditLog(logPath());
    truncateSync(logPath(), Buffer.byteLength(`${lines.slice(0, 7).join('\n')}\n`));
    const growth = await verifyAuditLogGrowth(logPath(), snapshot);
    expect(growth).toMatchObject({ ok: false, code: 'E_TRUNCATED' });
    if (!growth.ok) expect(growth.reason).toContain('lost 3 events (size 10 → 7)');
  });

  it('rejects a deleted log, and one replaced by another file', async () => {
    await writeTestLog(logPath(), 4);
    const snapshot = await snapshotAuditLog(logPath());
    const copy = join(directory(), 'copy.log');
    writeFileSync(copy, readFileSync(logPath()));
    renameSync(copy, logPath());
    expect(await verifyAuditLogGrowth(logPath(), snapshot)).toMatchObject({
      ok: false,
      code: 'E_LOG_REPLACED',
    });
    rmSync(logPath());
    const missing = await verifyAuditLogGrowth(logPath(), snapshot);
    expect(missing).toMatchObject({ ok: false, code: 'E_LOG_MISSING' });
    if (!missing.ok) expect(missing.reason).toContain('it held 4 events');
  });

  it('rejects appended lines that are not the next valid event', async () => {
    const lines = await writeTestLog(logPath(), 4);
    const snapshot = await snapshotAuditLog(logPath());
    // A copy of an old line appended again: valid hash, wrong seq.
    appendFileSync(logPath(), `${lines[1]}\n`);
    expect(await verifyAuditLogGrowth(logPath(), snapshot)).toMatchObject({ ok: false, code: 'E_SEQ' });
    truncateSync(logPath(), snapshot.size);
    appendFileSync(logPath(), 'not json\n');
    expect(await verifyAuditLogGrowth(logPath(), snapshot)).toMatchObject({ ok: false, code: 'E_PARSE' });
  });

  it('treats a log created after a snapshot of nothing as growth from its genesis', async () => {
    const snapshot = await snapshotAuditLog(logPath());
    expect(snapshot.exists).toBe(false);
    expect(await verifyAuditLogGrowth(logPath(), snapshot)).toEqual({ ok: true, appended: [] });
    await writeTestLog(logPath(), 3);
    const growth = await verifyAuditLogGrowth(logPath(), snapshot);
    expect(growth.ok && growth.appended.map((event) => event.seq)).toEqual([0, 1, 2]);
    expect(readLines(logPath())).toHaveLength(3);
  });
});
