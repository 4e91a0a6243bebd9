import { renameSync, writeFileSync } from 'node:fs';

/** Writes `value` as JSON through a temporary file, so a reader never sees half of it. */
export function writeJsonFile(path: string, value: unknown): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  renameSync(temporary, path);
}
