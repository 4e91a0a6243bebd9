import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotAGitRepositoryError } from '../errors.js';
import { currentBranch } from './current-branch.js';
import { objectFormat } from './object-format.js';
import { repositoryLayout } from './repository-layout.js';
import { findGitCommonDirectory, findRepositoryRoot } from './repository-paths.js';
import { useIsolatedGitConfiguration } from './test-repository.js';

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
let scratch: string;
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'snodo-layout-'));
});
afterAll(() => {
  configuration.restore();
  rmSync(scratch, { recursive: true, force: true });
});

const gitIn = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

function freshRepository(name: string, format: 'sha1' | 'sha256' = 'sha1'): string {
  const directory = path.join(scratch, name);
  mkdirSync(directory, { recursive: true });
  gitIn(directory, 'init', '-q', `--object-format=${format}`);
  return directory;
}

describe('repositoryLayout', () => {
  it('reports root, git directories and object format of a checkout in one answer', async () => {
    const directory = freshRepository('plain');
    const layout = await repositoryLayout(directory);
    expect(layout).toEqual({
      root: directory,
      commonDirectory: path.join(directory, '.git'),
      gitDirectory: path.join(directory, '.git'),
      objectFormat: 'sha1',
    });
    expect(await findRepositoryRoot(path.join(directory, '.'))).toBe(directory);
  });

  it('never answers from a stale entry when the repository is made again at the same path', async () => {
    const directory = freshRepository('remade');
    expect(await objectFormat(directory)).toBe('sha1');
    rmSync(directory, { recursive: true, force: true });
    freshRepository('remade', 'sha256');
    expect(await objectFormat(directory)).toBe('sha256');
    rmSync(directory, { recursive: true, force: true });
    mkdirSync(directory);
    await expect(findRepositoryRoot(directory)).rejects.toBeInstanceOf(NotAGitRepositoryError);
  });

  it('answers a subdirectory, and a repository made inside it later, each with its own root', async () => {
    const outer = freshRepository('outer');
    const inner = path.join(outer, 'inner');
    mkdirSync(inner);
    expect(await findRepositoryRoot(inner)).toBe(outer);
    gitIn(inner, 'init', '-q');
    expect(await findRepositoryRoot(inner)).toBe(inner);
  });

  it('knows a bare repository has no working tree', async () => {
    const bare = path.join(scratch, 'bare.git');
    execFileSync('git', ['init', '-q', '--bare', bare]);
    expect((await repositoryLayout(bare)).root).toBeUndefined();
    expect(await findGitCommonDirectory(bare)).toBe(bare);
    await expect(findRepositoryRoot(bare)).rejects.toBeInstanceOf(NotAGitRepositoryError);
  });

  it('refuses a directory that does not exist, and one outside any repository', async () => {
    await expect(repositoryLayout(path.join(scratch, 'missing'))).rejects.toBeInstanceOf(
      NotAGitRepositoryError,
    );
    await expect(repositoryLayout(os.tmpdir())).rejects.toBeInstanceOf(NotAGitRepositoryError);
  });
});

describe('currentBranch', () => {
  it('reads a branch, a detached commit and an unborn branch', async () => {
    const directory = freshRepository('heads');
    expect(await currentBranch(directory)).toMatchObject({ detached: false, commit: undefined });
    gitIn(directory, 'commit', '-q', '--allow-empty', '-m', 'one');
    const commit = gitIn(directory, 'rev-parse', 'HEAD');
    const branch = gitIn(directory, 'symbolic-ref', '--short', 'HEAD');
    expect(await currentBranch(directory)).toEqual({
      detached: false,
      name: branch,
      ref: `refs/heads/${branch}`,
      commit,
    });
    gitIn(directory, 'checkout', '-q', '--detach');
    expect(await currentBranch(directory)).toEqual({ detached: true, commit });
  });
});
