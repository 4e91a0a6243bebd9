import { statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLogRewrittenError } from './errors/audit-log-rewritten-error.js';
import { openAuditLog } from './open-audit-log.js';
import { useTemporaryDirectory } from './testing/temporary-directory.js';
import { testRepository } from './testing/test-repository.js';
import { readLines } from './testing/write-test-log.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('an open AuditLog whose file is cut or rewritten beneath it', () => {
  const directory = useTemporaryDirectory();
  const logPath = (): string => join(directory(), 'audit.log');

  it('refuses to append after its tail was cut, naming the lost events, and stays refused', async () => {
    const log = await openAuditLog(logPath(), { repository: testRepository });
    for (let index = 1; index <= 5; index++) await log.append({ type: 'step-run', data: { index } });
    const lines = readLines(logPath());
    // Cut seq 4 and 5 off, at a line boundary: the rest is a self-consistent chain.
    truncateSync(logPath(), Buffer.byteLength(`${lines.slice(0, 4).join('\n')}\n`));
    const sizeAfterCut = statSync(logPath()).size;

    const refused = await rejection(log.append({ type: 'step-run', data: { index: 6 } }));
    expect(AuditLogRewrittenError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ kind: 'truncated', fromSeq: 4, toSeq: 5, code: 'AUDIT_LOG_REWRITTEN' });
    expect((refused as Error).message).toContain('lost events 4..5');
    expect((refused as Error).message).toContain('snodo audit verify');
    // Sticky: later appends and checkpoints are refused too, and nothing reached the file.
    expect(await rejection(log.append({ type: 'step-run', data: { index: 7 } }))).toSatisfy(
      AuditLogRewrittenError.isInstance,
    );
    expect(statSync(logPath()).size).toBe(sizeAfterCut);
    await log.close();
  });

  it('refuses when the cut tail was regrown by someone else to the same length', async () => {
    const log = await openAuditLog(logPath(), { repository: testRepository });
    for (let index = 1; index <= 4; index++) await log.append({ type: 'step-run', data: { index } });
    const lines = readLines(logPath());
    truncateSync(logPath(), Buffer.byteLength(`${lines.slice(0, 3).join('\n')}\n`));
    // A fresh handle does not know what was there; it appends two new events (seq 3 and 4 again).
    const other = await openAuditLog(logPath());
    await other.append({ type: 'step-run', data: { index: 30 } });
    await other.append({ type: 'step-run', data: { index: 40 } });
    await other.close();

    const refused = await rejection(log.append({ type: 'step-run', data: { index: 5 } }));
    expect(refused).toMatchObject({ kind: 'rewritten', fromSeq: 4, toSeq: 4 });
    await log.close();
  });

  it('keeps appending while other handles and processes only add lines', async () => {
    const first = await openAuditLog(logPath(), { repository: testRepository });
    const second = await openAuditLog(logPath());
    for (let index = 0; index < 10; index++) {
      await first.append({ type: 'step-run', actor: 'first', data: { index } });
      await second.append({ type: 'step-run', actor: 'second', data: { index } });
    }
    const checkpointHead = await first.head();
    await first.close();
    await second.close();
    expect(checkpointHead.size).toBe(21);
  });
});
