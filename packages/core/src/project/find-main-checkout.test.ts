import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotAGitRepositoryError } from '../errors.js';
import { useIsolatedGitConfiguration } from '../git/test-repository.js';
import { findMainCheckout, findMainCheckoutForReading } from './find-main-checkout.js';

// `findMainCheckoutForReading` answers an ordinary checkout from the filesystem and asks git for the rest;
// either way its answer is git's.

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
let scratch: string;
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
  scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'snodo-main-checkout-')));
});
afterAll(() => {
  configuration.restore();
  rmSync(scratch, { recursive: true, force: true });
});

const gitIn = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

function repository(name: string): string {
  const directory = path.join(scratch, name);
  mkdirSync(path.join(directory, 'src', 'deep'), { recursive: true });
  gitIn(directory, 'init', '-q', '-b', 'trunk');
  writeFileSync(path.join(directory, 'README.md'), 'hi\n');
  gitIn(directory, 'add', '.');
  gitIn(directory, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'first');
  return directory;
}

const noCeiling = {};

describe('findMainCheckoutForReading', () => {
  it('gives git’s answer from the top, a subdirectory and a path through a link', async () => {
    const root = repository('plain');
    const link = path.join(scratch, 'link-to-plain');
    symlinkSync(root, link);
    const expected = await findMainCheckout(root);
    expect(expected).toEqual({ root, commonDirectory: path.join(root, '.git') });
    for (const start of [root, path.join(root, 'src', 'deep'), path.join(link, 'src')]) {
      expect(await findMainCheckoutForReading(start, noCeiling), start).toEqual(expected);
    }
  });

  it('reads the checkout without git: it answers where git itself refuses the repository', async () => {
    const root = repository('future-format');
    gitIn(root, 'config', 'core.repositoryformatversion', '99');
    await expect(findMainCheckout(root)).rejects.toSatisfy(NotAGitRepositoryError.isInstance);
    expect((await findMainCheckoutForReading(path.join(root, 'src'), noCeiling)).root).toBe(root);
  });

  it('from a linked worktree gives the main checkout, as git does', async () => {
    const root = repository('with-worktree');
    const worktree = path.join(scratch, 'linked');
    gitIn(root, 'worktree', 'add', '-q', worktree, '-b', 'side');
    expect(await findMainCheckoutForReading(worktree, noCeiling)).toEqual({
      root,
      commonDirectory: path.join(root, '.git'),
    });
  });

  it('asks git under GIT_CEILING_DIRECTORIES, and where a .git directory is not a repository', async () => {
    const outer = repository('outer');
    const beneath = path.join(outer, 'src');
    // A ceiling at the checkout's top: git does not look there, so from beneath it there is no repository.
    const ceiling = { GIT_CEILING_DIRECTORIES: outer };
    const previous = process.env.GIT_CEILING_DIRECTORIES;
    process.env.GIT_CEILING_DIRECTORIES = outer;
    try {
      await expect(findMainCheckoutForReading(beneath, ceiling)).rejects.toSatisfy(
        NotAGitRepositoryError.isInstance,
      );
    } finally {
      if (previous === undefined) delete process.env.GIT_CEILING_DIRECTORIES;
      else process.env.GIT_CEILING_DIRECTORIES = previous;
    }
    // An empty `.git` directory inside `outer` is not a repository: git looks further up, and finds `outer`.
    const nested = path.join(outer, 'src', 'deep');
    mkdirSync(path.join(nested, '.git'));
    expect((await findMainCheckoutForReading(nested, noCeiling)).root).toBe(outer);
  });

  it('outside any repository throws NOT_A_GIT_REPOSITORY, as findMainCheckout does', async () => {
    const outside = path.join(scratch, 'nothing-here');
    mkdirSync(outside);
    await expect(findMainCheckoutForReading(outside, noCeiling)).rejects.toSatisfy(
      NotAGitRepositoryError.isInstance,
    );
  });
});
