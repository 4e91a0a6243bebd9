import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { canonicalJson } from './canonical-json.js';
import type { SignedCheckpoint } from './checkpoint.js';
import { parseCheckpointObject } from './checkpoint-shape.js';
import { AuditWriteError } from './errors/audit-write-error.js';
import { AuditFileError } from './errors.js';

/**
 * Appends a signed checkpoint to a checkpoint store: a JSONL file, one canonical checkpoint per line,
 * written with one `write` on an append-mode descriptor. No chain and no lock are needed: each line
 * stands on its own signature. Keep the store outside the repository (`$SNODO_HOME`), so truncating
 * `.snodo/audit.log` does not also cut the store.
 */
export function appendCheckpoint(storePath: string, checkpoint: SignedCheckpoint): void {
  const bytes = Buffer.from(`${canonicalJson(checkpoint)}\n`, 'utf8');
  const descriptor = openSync(storePath, 'a', 0o600);
  try {
    const written = writeSync(descriptor, bytes);
    if (written !== bytes.length) {
      throw new AuditWriteError({
        path: storePath,
        problem: `only ${written} of ${bytes.length} bytes were written`,
        fix: 'Check free disk space; the torn line is ignored when the store is read.',
      });
    }
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Reads every checkpoint of a store. A missing store is empty; a last line without a newline (a crash
 * mid-write) is ignored; any other bad line throws `AuditCheckpointError` naming it.
 */
export function readCheckpoints(storePath: string): SignedCheckpoint[] {
  let text: string;
  try {
    text = readFileSync(storePath, 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new AuditFileError({ path: storePath, cause });
  }
  const lines = text.split('\n');
  // The element after the last "\n" is "" for a complete file, a torn fragment otherwise: never parsed.
  lines.pop();
  const checkpoints: SignedCheckpoint[] = [];
  lines.forEach((line, index) => {
    checkpoints.push(parseCheckpoint(line, `${storePath}:${index + 1}`));
  });
  return checkpoints;
}

/**
 * Reads one checkpoint from its JSON text (a store line, a `checkpoint.json` blob). Checks the fields, not
 * the signature; throws `AuditCheckpointError` naming `source` for anything else.
 */
export function parseCheckpoint(text: string, source: string): SignedCheckpoint {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return parseCheckpointObject(parsed, source);
}
