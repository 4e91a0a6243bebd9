import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commitFileToReference } from './commit-file-to-reference.js';
import { fallbackIdentity } from './git-identity.js';
import { createTestRepository, type TestRepository, useIsolatedGitConfiguration } from './test-repository.js';

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
const repositories: TestRepository[] = [];
const repository = (options?: Parameters<typeof createTestRepository>[0]): TestRepository => {
  const created = createTestRepository(options);
  repositories.push(created);
  return created;
};

beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
});
afterAll(() => configuration.restore());
afterEach(() => {
  for (const created of repositories.splice(0)) created.cleanup();
});

const reference = 'refs/snodo/audit';

function write(target: TestRepository, expected: string | undefined, content: string) {
  return commitFileToReference({
    cwd: target.root,
    reference,
    expected,
    file: { name: 'checkpoint.json', content },
    message: `checkpoint\n\nSnodo-Checkpoint: ${content.trim()}\n`,
    identity: fallbackIdentity,
  });
}

describe('commitFileToReference', () => {
  it('creates the ref with a one-file tree, then appends on top of it, as loose objects', async () => {
    const target = repository();
    const first = await write(target, undefined, '{"size":1}\n');
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    expect(target.git(['rev-parse', reference])).toBe(first);
    const second = await write(target, first, '{"size":2}\n');
    expect(target.git(['rev-parse', reference])).toBe(second);
    expect(target.git(['log', '--format=%P', '-1', reference])).toBe(first);
    // Exactly one file, whatever the parent held; content and message byte for byte.
    expect(target.git(['ls-tree', '--name-only', reference])).toBe('checkpoint.json');
    expect(target.git(['show', `${reference}:checkpoint.json`])).toBe('{"size":2}');
    expect(target.git(['log', '--format=%B', '-1', reference])).toBe(
      'checkpoint\n\nSnodo-Checkpoint: {"size":2}',
    );
    expect(target.git(['log', '--format=%an <%ae>|%cn <%ce>', '-1', reference])).toBe(
      'snodo <snodo@localhost>|snodo <snodo@localhost>',
    );
    // A handful of objects per checkpoint must not leave a pack file per run behind.
    const packs = path.join(target.root, '.git', 'objects', 'pack');
    expect(existsSync(packs) ? readdirSync(packs).filter((name) => name.endsWith('.pack')) : []).toEqual([]);
    expect(target.git(['fsck', '--no-progress'])).toBe('');
  });

  it('moves nothing when the ref is not at the expected commit (a lost compare-and-swap)', async () => {
    const target = repository();
    const first = await write(target, undefined, '{"size":1}\n');
    const moved = await write(target, first, '{"size":2}\n');
    // A writer that still believes the tip is `first`:
    expect(await write(target, first, '{"size":3}\n')).toBeUndefined();
    expect(target.git(['rev-parse', reference])).toBe(moved);
    // And one that believes the ref does not exist yet:
    expect(await write(target, undefined, '{"size":4}\n')).toBeUndefined();
    expect(target.git(['rev-parse', reference])).toBe(moved);
  });

  it('reports a ref another process holds locked as a lost race (the caller retries), moving nothing', async () => {
    const target = repository();
    const first = await write(target, undefined, '{"size":1}\n');
    const lock = path.join(target.root, '.git', `${reference}.lock`);
    writeFileSync(lock, `${first}\n`);
    try {
      expect(await write(target, first, '{"size":2}\n')).toBeUndefined();
      expect(target.git(['rev-parse', reference])).toBe(first);
    } finally {
      rmSync(lock);
    }
    expect(await write(target, first, '{"size":2}\n')).toMatch(/^[0-9a-f]{40}$/);
  });

  it('counts bytes, not characters, and works in a SHA-256 repository', async () => {
    const target = repository({ objectFormat: 'sha256' });
    const content = '{"actor":"Zoë ✓"}\n';
    const commit = await write(target, undefined, content);
    expect(commit).toMatch(/^[0-9a-f]{64}$/);
    expect(target.git(['show', `${reference}:checkpoint.json`])).toBe(content.trim());
  });

  it('refuses a file name with a slash or a line break before running git', async () => {
    const target = repository();
    await expect(
      commitFileToReference({
        cwd: target.root,
        reference,
        expected: undefined,
        file: { name: 'a/b', content: 'x' },
        message: 'm',
        identity: fallbackIdentity,
      }),
    ).rejects.toThrow(/bad file name/);
  });
});
