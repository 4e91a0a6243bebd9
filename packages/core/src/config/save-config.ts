import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../fs/index.js';

/**
 * Writes config text atomically (temp file in the same directory, fsync, rename) with mode 0600, so a
 * crash leaves the old file or the new one and API keys are never readable by others. Creates
 * `$SNODO_HOME` (and any missing parent) with mode 0700.
 */
export function writeConfigText(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // The temp file is created 0600 and renamed over the old file, so a file that was 0644 becomes 0600.
  writeFileAtomic(path, text, 0o600, { durable: true });
}
