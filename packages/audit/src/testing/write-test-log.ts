import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { serializeEvent } from '../event-hash.js';
import { openAuditLog } from '../open-audit-log.js';
import { testRepository } from './test-repository.js';

/** Creates a log of `count` events (genesis included) and returns its lines, without newlines. */
export async function writeTestLog(path: string, count: number): Promise<string[]> {
  const log = await openAuditLog(path, { repository: testRepository });
  for (let index = 1; index < count; index++) {
    await log.append({ type: 'step-run', job: 'j_test', data: { index, note: `step ${index}` } });
  }
  await log.close();
  return readLines(path);
}

/**
 * Creates a log of `count` valid events quickly: a genesis through `openAuditLog`, then chained lines
 * rendered by `serializeEvent` and written at once (appending each through the lock takes seconds).
 */
export async function writeLargeTestLog(path: string, count: number): Promise<void> {
  const log = await openAuditLog(path, { repository: testRepository });
  let prev = (await log.head()).hash;
  await log.close();
  const lines: string[] = [];
  for (let seq = 1; seq < count; seq++) {
    const { hash, line } = serializeEvent({
      v: 1,
      seq,
      ts: new Date(1_700_000_000_000 + seq).toISOString(),
      type: 'step-run',
      job: 'j_test',
      actor: 'snodo',
      data: { index: seq, note: `step ${seq}` },
      prev,
    });
    prev = hash;
    lines.push(`${line}\n`);
  }
  appendFileSync(path, lines.join(''));
}

/** The lines of a log file, without newlines (a torn last line included as is). */
export function readLines(path: string): string[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Rewrites a log file from lines, each ending in a newline. */
export function writeLines(path: string, lines: readonly string[]): void {
  writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
}
