import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { advanceCheckout } from './base-checkout.js';

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
const repositories: TestRepository[] = [];
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
});
afterAll(() => configuration.restore());
afterEach(() => {
  for (const created of repositories.splice(0)) created.cleanup();
});

/** trunk at `from` (checked out), and `to` one commit on top changing `file.txt`. */
function setUp() {
  const target = createTestRepository({ branch: 'trunk' });
  repositories.push(target);
  const from = target.commit('v1', { 'file.txt': 'v1\n', 'other.txt': 'other\n' });
  const to = target.commit('v2', { 'file.txt': 'v2\n' });
  // Back to v1 in the index and files, as a checkout is before landing moves its branch.
  target.git(['read-tree', '-m', '-u', to, from]);
  return { target, from, to };
}

// The stat refresh before read-tree runs only when read-tree refuses a stat-dirty entry.
describe('advanceCheckout', () => {
  it('brings a fresh checkout along with read-tree alone', async () => {
    const { target, from, to } = setUp();
    await advanceCheckout(target.root, from, to);
    expect(readFileSync(path.join(target.root, 'file.txt'), 'utf8')).toBe('v2\n');
    expect(target.git(['status', '--porcelain'])).toBe('');
  });

  it('still lands over files touched without a change (stat data refreshed, then read-tree again)', async () => {
    const { target, from, to } = setUp();
    const later = new Date(Date.now() + 5_000);
    for (const file of ['file.txt', 'other.txt']) utimesSync(path.join(target.root, file), later, later);
    await advanceCheckout(target.root, from, to);
    expect(readFileSync(path.join(target.root, 'file.txt'), 'utf8')).toBe('v2\n');
    expect(target.git(['status', '--porcelain'])).toBe('');
  });

  it('refuses, changing nothing, when the user edited a file the move changes', async () => {
    const { target, from, to } = setUp();
    writeFileSync(path.join(target.root, 'file.txt'), 'the user’s edit\n');
    await expect(advanceCheckout(target.root, from, to)).rejects.toThrow(/not uptodate/);
    expect(readFileSync(path.join(target.root, 'file.txt'), 'utf8')).toBe('the user’s edit\n');
  });
});
