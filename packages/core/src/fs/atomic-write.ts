import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `content` to `path` so a reader sees either the old file or the whole new one, never half:
 * a temp file in the same directory (same filesystem, so `rename` is atomic), then renamed. `durable`
 * also flushes it to disk first, for files that must survive a power cut (config); files rewritten many
 * times a run (`state.json`) skip it: the audit log is snodo's durable record.
 */
export function writeFileAtomic(
  path: string,
  content: string,
  mode = 0o644,
  options: { durable?: boolean } = {},
): void {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  let descriptor: number | undefined;
  try {
    descriptor = openSync(temporary, 'wx', mode);
    writeSync(descriptor, content);
    if (options.durable) fsyncSync(descriptor);
    closeSync(descriptor);
    descriptor = undefined;
    renameSync(temporary, path);
  } catch (error) {
    if (descriptor !== undefined) closeSync(descriptor);
    rmSync(temporary, { force: true });
    throw error;
  }
}
