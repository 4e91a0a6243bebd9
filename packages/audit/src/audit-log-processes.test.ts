import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from './audit-event.js';
import { openAuditLog } from './open-audit-log.js';
import { readAuditEvents } from './read-audit-events.js';
import { spawnAppendWorker, waitForExit, waitForLine } from './testing/spawn-worker.js';
import { useTemporaryDirectory } from './testing/temporary-directory.js';
import { readLines } from './testing/write-test-log.js';
import { verifyAuditLog } from './verify-audit-log.js';

describe('audit log across OS processes', () => {
  const directory = useTemporaryDirectory();

  it('4 processes x 500 appends give 2,000 events with contiguous seq and a verifying chain', {
    timeout: 60_000,
  }, async () => {
    const path = join(directory(), 'audit.log');
    // The workers also race to create the log: exactly one genesis must win.
    const workers = ['w1', 'w2', 'w3', 'w4'].map((label) => spawnAppendWorker(path, 500, label));
    const exits = await Promise.all(workers.map(waitForExit));
    for (const exit of exits) expect(exit, exit.stderr).toMatchObject({ code: 0 });
    const result = await verifyAuditLog(path);
    expect(result).toMatchObject({ ok: true, events: 2001, lines: 2001, headSeq: 2000, warnings: [] });
    const events: AuditEvent[] = [];
    for await (const event of readAuditEvents(path)) events.push(event);
    expect(events.filter((event) => event.type === 'log-create')).toHaveLength(1);
    expect(events.map((event) => event.seq)).toEqual(Array.from({ length: 2001 }, (_, index) => index));
    for (const label of ['w1', 'w2', 'w3', 'w4']) {
      const indices = events.filter((event) => event.actor === label).map((event) => event.data.index);
      expect(indices, label).toEqual(Array.from({ length: 500 }, (_, index) => index));
    }
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('survives a writer killed with SIGKILL inside a tight append loop, again and again', {
    timeout: 60_000,
  }, async () => {
    const path = join(directory(), 'audit.log');
    for (let round = 0; round < 3; round++) {
      const worker = spawnAppendWorker(path, 'forever', `killed-${round}`);
      const exited = waitForExit(worker);
      await waitForLine(worker, 'ready');
      // Let it run a little so the kill lands mid-loop, possibly inside the lock.
      const sizeAtReady = statSync(path).size;
      while (statSync(path).size < sizeAtReady + 20_000)
        await new Promise((resolve) => setTimeout(resolve, 5));
      worker.kill('SIGKILL');
      expect((await exited).signal).toBe('SIGKILL');

      const log = await openAuditLog(path, { lockTimeoutMs: 5_000 });
      expect(log.verification.ok).toBe(true);
      expect(log.verification.warnings.length).toBeLessThanOrEqual(1);
      const event = await log.append({ type: 'job-resume', data: { round } });
      await log.close();
      const result = await verifyAuditLog(path);
      expect(result).toMatchObject({ ok: true, headSeq: event.seq });
      expect(result.warnings.filter((warning) => warning.code === 'W_TORN').length).toBeLessThanOrEqual(
        round + 1,
      );
    }
    const lines = readLines(path);
    expect(lines.length).toBeGreaterThan(100);
  });
});
