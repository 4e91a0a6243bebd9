import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/**
 * A fresh temporary directory per test, removed afterwards. Returns a getter, since the directory is made
 * in `beforeEach`.
 */
export function useTemporaryDirectory(prefix = 'snodo-audit-'): () => string {
  let directory: string | undefined;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
    directory = undefined;
  });
  return () => {
    if (directory === undefined) throw new Error('useTemporaryDirectory: called outside a test');
    return directory;
  };
}
