import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCommitReaders, readObjectThroughReader } from './commit-reader.js';
import { readCommitParents } from './read-commit-parents.js';
import { relateCommits, resolveCommits } from './rev-parse.js';
import { useIsolatedGitConfiguration } from './test-repository.js';

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
let scratch: string;
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'snodo-reader-contents-'));
});
afterAll(() => {
  closeCommitReaders();
  configuration.restore();
  rmSync(scratch, { recursive: true, force: true });
});

const gitIn = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

function repository(name: string): string {
  const directory = path.join(scratch, name);
  mkdirSync(directory, { recursive: true });
  gitIn(directory, 'init', '-q', '-b', 'main');
  return directory;
}

// The reader answers `contents` questions too, so a commit's parents and the audit anchor's checkpoint
// are read without a process of their own.
describe('objects read through the long-lived reader', () => {
  it('gives the parents rev-list --parents gives: a root, one parent, a merge', async () => {
    const directory = repository('parents');
    gitIn(directory, 'commit', '-q', '--allow-empty', '-m', 'root');
    gitIn(directory, 'switch', '-q', '-c', 'side');
    gitIn(directory, 'commit', '-q', '--allow-empty', '-m', 'side\n\nparent not-a-header-line');
    gitIn(directory, 'switch', '-q', 'main');
    gitIn(directory, 'commit', '-q', '--allow-empty', '-m', 'main');
    gitIn(directory, 'merge', '-q', '--no-ff', '-m', 'merge', 'side');
    for (const revision of ['HEAD', 'HEAD^1', 'HEAD^2', 'HEAD~2']) {
      const [commit, ...parents] = gitIn(directory, 'rev-list', '--max-count=1', '--parents', revision).split(
        ' ',
      );
      expect(await readCommitParents(directory, revision)).toEqual({ commit, parents });
    }
    expect(await readCommitParents(directory, 'refs/heads/nothing')).toBeUndefined();
    expect(await readCommitParents(directory, 'HEAD^{tree}')).toBeUndefined();
  });

  it('reads a blob byte for byte, between ref questions, and refuses one over its size limit', async () => {
    const directory = repository('blobs');
    const bytes = Buffer.from([0, 10, 10, 255, 32, 10, 0x6d, 0x69, 0x73, 0x73, 0x69, 0x6e, 0x67]);
    writeFileSync(path.join(directory, 'data.bin'), bytes);
    writeFileSync(path.join(directory, 'big.txt'), 'x'.repeat(4096));
    gitIn(directory, 'add', '-A');
    gitIn(directory, 'commit', '-q', '-m', 'files');
    const head = gitIn(directory, 'rev-parse', 'HEAD');
    const [blob, before, after] = await Promise.all([
      readObjectThroughReader(directory, 'HEAD:data.bin'),
      resolveCommits(directory, ['HEAD']),
      resolveCommits(directory, ['main', 'nothing']),
    ]);
    expect(blob).toMatchObject({ type: 'blob', name: gitIn(directory, 'rev-parse', 'HEAD:data.bin') });
    expect(blob !== 'missing' && blob?.content.equals(bytes)).toBe(true);
    expect(before).toEqual([head]);
    expect(after).toEqual([head, undefined]);
    expect(await readObjectThroughReader(directory, 'HEAD:no-such-file')).toBe('missing');
    expect(await readObjectThroughReader(directory, 'HEAD:big.txt', { maxBytes: 1000 })).toBeUndefined();
    expect((await readObjectThroughReader(directory, 'HEAD:big.txt')) !== undefined).toBe(true);
  });

  it('relates commits as merge-base does, with or without a parent to shortcut it', async () => {
    const directory = repository('relate');
    gitIn(directory, 'commit', '-q', '--allow-empty', '-m', 'a');
    const a = gitIn(directory, 'rev-parse', 'HEAD');
    gitIn(directory, 'commit', '-q', '--allow-empty', '-m', 'b');
    const b = gitIn(directory, 'rev-parse', 'HEAD');
    gitIn(directory, 'commit', '-q', '--allow-empty', '-m', 'c');
    const c = gitIn(directory, 'rev-parse', 'HEAD');
    gitIn(directory, 'switch', '-q', '-c', 'other', a);
    gitIn(directory, 'commit', '-q', '--allow-empty', '-m', 'd');
    const d = gitIn(directory, 'rev-parse', 'HEAD');
    expect(await relateCommits(directory, b, a)).toBe('descendant');
    expect(await relateCommits(directory, a, b)).toBe('ancestor');
    expect(await relateCommits(directory, c, a)).toBe('descendant');
    expect(await relateCommits(directory, a, c)).toBe('ancestor');
    expect(await relateCommits(directory, c, d)).toBe('diverged');
    expect(await relateCommits(directory, c, c)).toBe('same');
  });
});
