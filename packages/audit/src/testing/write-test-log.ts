import { readFileSync, writeFileSync } from 'node:fs';
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
