import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { refComponentProblem } from '@snodo/core';
import { WorkerSetupError } from './errors.js';

const WORKER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * This machine's worker id: `--id` when given, else the one kept in `$SNODO_HOME/worker-id`, made on first
 * start from the host name and a random suffix. Stable across restarts, because it names the worker's audit
 * chain (`refs/snodo/audit/<id>`) and its registered key.
 */
export function resolveWorkerId(snodoHome: string, requested?: string): string {
  if (requested !== undefined) return checkWorkerId(requested);
  const file = join(snodoHome, 'worker-id');
  try {
    return checkWorkerId(readFileSync(file, 'utf8').trim());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const host =
    hostname()
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .slice(0, 40) || 'worker';
  const id = checkWorkerId(`${host}-${randomBytes(3).toString('hex')}`);
  mkdirSync(snodoHome, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${id}\n`, { mode: 0o600, flag: 'wx' });
  return id;
}

function checkWorkerId(id: string): string {
  // Core's rule for a ref component too: git refuses `refs/snodo/audit/<id>` for an id ending `.lock`.
  if (!WORKER_ID.test(id) || refComponentProblem(id) !== undefined) {
    throw new WorkerSetupError({
      problem: `the worker id ${JSON.stringify(id)} is not usable`,
      fix: 'Use up to 64 letters, digits, `.`, `_` or `-`, not ending in `.` or `.lock` (it names refs/snodo/audit/<id>), e.g. --id build-01.',
    });
  }
  return id;
}
