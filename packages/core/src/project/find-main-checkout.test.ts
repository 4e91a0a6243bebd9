import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotAGitRepositoryError } from '../errors.js';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../git/test-repository.js';
import { findMainCheckout, findMainCheckoutForReading } from './find-main-checkout.js';

// `findMainCheckoutForReading` answers an ordinary checkout from the filesystem and asks git for the rest;
// either way its answer is git's.

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
const repositories: TestRepository[] = [];
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
});
afterAll(() => {
  configuration.restore();
  for (const made of repositories) made.cleanup();
});

/** A repository with one commit and a `src/deep/` directory; its root as git reports it (links resolved). */
function repository(): { made: TestRepository; root: string } {
  const made = createTestRepository();
  repositories.push(made);
  mkdirSync(path.join(made.root, 'src', 'deep'), { recursive: true });
  return { made, root: realpathSync(made.root) };
}

const noCeiling = {};

describe('findMainCheckoutForReading', () => {
  it('gives git’s answer from the top, a subdirectory and a path through a link', async () => {
    const { made, root } = repository();
    const link = path.join(made.temporaryDirectory, 'link-to-plain');
    symlinkSync(root, link);
    const expected = await findMainCheckout(root);
    expect(expected).toEqual({ root, commonDirectory: path.join(root, '.git') });
    for (const start of [root, path.join(root, 'src', 'deep'), path.join(link, 'src')]) {
      expect(await findMainCheckoutForReading(start, noCeiling), start).toEqual(expected);
    }
  });

  it('reads the checkout without git: it answers where git itself refuses the repository', async () => {
    const { made, root } = repository();
    made.git(['config', 'core.repositoryformatversion', '99']);
    await expect(findMainCheckout(root)).rejects.toSatisfy(NotAGitRepositoryError.isInstance);
    expect((await findMainCheckoutForReading(path.join(root, 'src'), noCeiling)).root).toBe(root);
  });

  it('from a linked worktree gives the main checkout, as git does', async () => {
    const { made, root } = repository();
    const worktree = path.join(made.temporaryDirectory, 'linked');
    made.git(['worktree', 'add', '-q', worktree, '-b', 'side']);
    expect(await findMainCheckoutForReading(worktree, noCeiling)).toEqual({
      root,
      commonDirectory: path.join(root, '.git'),
    });
  });

  it('asks git under GIT_CEILING_DIRECTORIES, and where a .git directory is not a repository', async () => {
    const { root: outer } = repository();
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
    // Beside the repository, in its temporary directory: no `.git` up from there.
    const outside = path.join(repository().made.temporaryDirectory, 'nothing-here');
    mkdirSync(outside);
    await expect(findMainCheckoutForReading(outside, noCeiling)).rejects.toSatisfy(
      NotAGitRepositoryError.isInstance,
    );
  });
});
