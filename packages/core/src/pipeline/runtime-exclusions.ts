import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * snodo's runtime files in the main checkout. Only `.snodo/protocol.yml` is meant to be committed; these
 * are listed in the repository's `info/exclude` (never in the user's `.gitignore`) so `git status` stays
 * clean after a run.
 */
export const RUNTIME_EXCLUSIONS = [
  '/.snodo/jobs/',
  '/.snodo/audit.log',
  '/.snodo/audit.log.*',
  '/.snodo/audit.*.log',
  '/.snodo/*.lock',
];

/** Adds the runtime exclusions to `<git common dir>/info/exclude`, once. */
export function ensureRuntimeExclusions(gitCommonDirectory: string): void {
  const infoDirectory = join(gitCommonDirectory, 'info');
  const excludePath = join(infoDirectory, 'exclude');
  mkdirSync(infoDirectory, { recursive: true });
  let current = '';
  try {
    current = readFileSync(excludePath, 'utf8');
  } catch {
    // No exclude file yet: it is created below.
  }
  const present = new Set(current.split('\n').map((line) => line.trim()));
  const missing = RUNTIME_EXCLUSIONS.filter((pattern) => !present.has(pattern));
  if (missing.length === 0) return;
  const prefix = current.length > 0 && !current.endsWith('\n') ? '\n' : '';
  appendFileSync(excludePath, `${prefix}# snodo runtime files\n${missing.join('\n')}\n`);
}
