import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkerId } from './worker-identity.js';

describe('resolveWorkerId', () => {
  let home: string | undefined;
  afterEach(() => {
    if (home !== undefined) rmSync(home, { recursive: true, force: true });
  });

  it('makes an id on first start and keeps it, so the chain and key it names stay the same', () => {
    home = mkdtempSync(join(tmpdir(), 'snodo-worker-id-'));
    const first = resolveWorkerId(home);
    expect(first).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*-[0-9a-f]{6}$/);
    expect(resolveWorkerId(home)).toBe(first);
    expect(readFileSync(join(home, 'worker-id'), 'utf8').trim()).toBe(first);
  });

  it('takes --id, and refuses one that cannot name a ref', () => {
    home = mkdtempSync(join(tmpdir(), 'snodo-worker-id-'));
    expect(resolveWorkerId(home, 'build-01')).toBe('build-01');
    expect(() => resolveWorkerId(home as string, 'a/b')).toThrow(/worker id "a\/b" is not usable/);
    // git refuses refs/snodo/audit/<id> for an id ending `.lock`: refused at start, not at the first landing.
    expect(() => resolveWorkerId(home as string, 'build.lock')).toThrow(
      /worker id "build.lock" is not usable/,
    );
  });
});
