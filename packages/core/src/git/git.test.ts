import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NotAGitRepositoryError } from '../errors.js';
import { commitWithMessage } from './commit-with-message.js';
import { compareAndSwapReference } from './compare-and-swap-reference.js';
import { currentBranch } from './current-branch.js';
import { diffNameStatus } from './diff-name-status.js';
import { diffPatch } from './diff-patch.js';
import { git } from './git.js';
import { GitCommandError } from './git-command-error.js';
import { resolveGitIdentity } from './git-identity.js';
import { mergeTrees } from './merge-trees.js';
import { findGitCommonDirectory, findRepositoryRoot } from './repository-paths.js';
import { isAncestor, resolveCommit } from './rev-parse.js';
import {
  createTestRepository,
  type TestRepository,
  testIdentity,
  useIsolatedGitConfiguration,
} from './test-repository.js';
import { isWorkingTreeClean, workingTreeStatus } from './working-tree-status.js';

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

describe('git()', () => {
  it('ignores an inherited GIT_DIR / GIT_WORK_TREE / GIT_INDEX_FILE and acts on the directory it was given', async () => {
    const target = repository();
    const decoy = repository();
    const saved = { ...process.env };
    process.env.GIT_DIR = path.join(decoy.root, '.git');
    process.env.GIT_WORK_TREE = decoy.root;
    process.env.GIT_INDEX_FILE = path.join(decoy.root, '.git', 'index');
    try {
      const result = await git(['rev-parse', '--show-toplevel'], { cwd: target.root });
      expect(result.stdout.trim()).toBe(target.root);
    } finally {
      process.env = saved;
    }
  });

  it('never runs repository hooks, even with core.hooksPath set in the shared config', async () => {
    const target = repository();
    const canary = path.join(target.temporaryDirectory, 'hook-ran');
    const hooks = path.join(target.temporaryDirectory, 'planted-hooks');
    mkdirSync(hooks);
    for (const hook of ['pre-commit', 'commit-msg', 'post-commit']) {
      const script = `#!/bin/sh\ntouch '${canary}'\n`;
      writeFileSync(path.join(hooks, hook), script, { mode: 0o755 });
      writeFileSync(path.join(target.root, '.git', 'hooks', hook), script, { mode: 0o755 });
    }
    target.git(['config', 'core.hooksPath', hooks]);
    target.write({ 'a.txt': 'a\n' });
    await commitWithMessage({ cwd: target.root, message: 'add a\n', stageAll: true });
    expect(existsSync(canary)).toBe(false);
    expect(target.git(['log', '-1', '--format=%s'])).toBe('add a');
  });

  it('throws GitCommandError with git’s stderr, or returns the exit code with allowFailure', async () => {
    const target = repository();
    const failure = await git(['rev-parse', '--verify', 'no-such-branch'], { cwd: target.root }).catch(
      (error) => error,
    );
    expect(GitCommandError.isInstance(failure)).toBe(true);
    expect((failure as GitCommandError).code).toBe('GIT_COMMAND_FAILED');
    expect((failure as GitCommandError).exitCode).toBe(128);
    expect((failure as GitCommandError).message).toContain('Needed a single revision');
    const allowed = await git(['rev-parse', '--verify', 'no-such-branch'], {
      cwd: target.root,
      allowFailure: true,
    });
    expect(allowed.exitCode).toBe(128);
  });
});

describe('repository helpers', () => {
  it('finds the root and common directory from a subdirectory, and refuses a directory outside git', async () => {
    const target = repository();
    mkdirSync(path.join(target.root, 'src', 'deep'), { recursive: true });
    expect(await findRepositoryRoot(path.join(target.root, 'src', 'deep'))).toBe(target.root);
    expect(await findGitCommonDirectory(path.join(target.root, 'src'))).toBe(path.join(target.root, '.git'));
    const outside = mkdtempSync(path.join(os.tmpdir(), 'snodo-not-git-'));
    try {
      const error = await findRepositoryRoot(outside).catch((caught) => caught);
      expect(NotAGitRepositoryError.isInstance(error)).toBe(true);
      expect((error as NotAGitRepositoryError).code).toBe('NOT_A_GIT_REPOSITORY');
      const file = path.join(outside, 'a-file');
      writeFileSync(file, 'x');
      expect(
        NotAGitRepositoryError.isInstance(await findRepositoryRoot(file).catch((caught) => caught)),
      ).toBe(true);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('reports the current branch, or the commit when HEAD is detached', async () => {
    const target = repository({ branch: 'trunk' });
    const head = target.revParse('HEAD');
    expect(await currentBranch(target.root)).toEqual({
      detached: false,
      name: 'trunk',
      ref: 'refs/heads/trunk',
      commit: head,
    });
    target.git(['checkout', '--quiet', '--detach']);
    expect(await currentBranch(target.root)).toEqual({ detached: true, commit: head });
  });

  it('resolves commits and ancestry, and treats a revision that looks like a flag as unknown', async () => {
    const target = repository();
    const first = target.revParse('HEAD');
    const second = target.commit('second', { 'b.txt': 'b\n' });
    expect(await resolveCommit(target.root, 'trunk')).toBe(second);
    expect(await resolveCommit(target.root, '--output=/tmp/x')).toBeUndefined();
    expect(await isAncestor(target.root, first, second)).toBe(true);
    expect(await isAncestor(target.root, second, first)).toBe(false);
  });

  it('lists staged, unstaged, untracked and renamed paths, including awkward file names', async () => {
    const target = repository();
    target.commit('files', { 'tracked.txt': 'one\n', 'old name.txt': 'rename me\n' });
    expect(await isWorkingTreeClean(target.root)).toBe(true);
    target.write({ 'tracked.txt': 'two\n', 'new\nline.txt': 'x\n', 'dir/untracked.txt': 'u\n' });
    target.git(['mv', 'old name.txt', 'new name.txt']);
    const status = await workingTreeStatus(target.root);
    expect(status).toEqual(
      expect.arrayContaining([
        { index: ' ', workTree: 'M', path: 'tracked.txt' },
        { index: '?', workTree: '?', path: 'new\nline.txt' },
        { index: '?', workTree: '?', path: 'dir/untracked.txt' },
        { index: 'R', workTree: ' ', path: 'new name.txt', originalPath: 'old name.txt' },
      ]),
    );
    expect(status).toHaveLength(4);
    expect(await isWorkingTreeClean(target.root)).toBe(false);
  });

  it('never runs a filter planted in a nested repository, yet still sees its new commits (regression: status recursed into it)', async () => {
    const target = repository();
    const canary = path.join(target.temporaryDirectory, 'filter-ran');
    const nested = path.join(target.root, 'sub');
    mkdirSync(nested);
    const sub = (args: readonly string[]) => target.git(args, nested);
    sub(['init', '--quiet']);
    target.write({ 'f.txt': 'f\n', '.gitattributes': '* filter=evil\n' }, nested);
    sub(['add', '--all']);
    sub(['commit', '--quiet', '-m', 'nested']);
    // A coder in the sandbox can write all of this: the nested repository's own config included.
    sub(['config', 'filter.evil.clean', `sh -c 'touch ${canary}; cat'`]);
    target.git(['add', 'sub']);
    target.git(['commit', '--quiet', '-m', 'gitlink']);
    target.write({ 'f.txt': 'f\n' }, nested);
    expect(await workingTreeStatus(target.root)).toEqual([]);
    expect(existsSync(canary)).toBe(false);
    sub(['commit', '--quiet', '--allow-empty', '-m', 'nested moves on']);
    // git itself, run in the nested repository, does run the filter (that is the danger); start over.
    rmSync(canary, { force: true });
    expect(await workingTreeStatus(target.root)).toEqual([{ index: ' ', workTree: 'M', path: 'sub' }]);
    expect(existsSync(canary)).toBe(false);
  });

  it('diffs two commits by name-status (renames detected) and as a patch', async () => {
    const target = repository();
    const base = target.commit('base', {
      'keep.txt': 'keep\n',
      'move.txt': 'a fairly long line that survives\n'.repeat(5),
    });
    target.git(['mv', 'move.txt', 'moved.txt']);
    const tip = target.commit('change', { 'keep.txt': 'changed\n', 'added.txt': 'new\n' });
    const entries = await diffNameStatus({ cwd: target.root, from: base, to: tip });
    expect(entries).toEqual(
      expect.arrayContaining([
        { status: 'A', path: 'added.txt' },
        { status: 'M', path: 'keep.txt' },
        { status: 'R', similarity: 100, path: 'moved.txt', previousPath: 'move.txt' },
      ]),
    );
    const patch = await diffPatch({ cwd: target.root, from: base, to: tip, paths: ['keep.txt'] });
    expect(patch).toContain('-keep\n+changed\n');
    expect(patch).not.toContain('added.txt');
    expect(patch.endsWith('\n')).toBe(true);
  });

  it('commits the message byte for byte, taken from stdin', async () => {
    const target = repository();
    const message =
      'Title with $(touch /tmp/x) and `id`\n\n# not a comment\n--dangerously-skip\nFake-Trailer: yes\n';
    target.write({ 'x.txt': 'x\n' });
    const commit = await commitWithMessage({ cwd: target.root, message, stageAll: true });
    expect(target.git(['cat-file', 'commit', commit]).split('\n\n').slice(1).join('\n\n')).toBe(
      message.trimEnd(),
    );
  });
});

describe('resolveGitIdentity', () => {
  it('uses the configured identity, else snodo <snodo@localhost> for its commits', async () => {
    const target = repository();
    expect(await resolveGitIdentity(target.root)).toEqual({ ...testIdentity, source: 'git' });
    const empty = path.join(configuration.home, 'empty-gitconfig');
    writeFileSync(empty, '');
    process.env.GIT_CONFIG_GLOBAL = empty;
    try {
      expect(await resolveGitIdentity(target.root)).toEqual({
        name: 'snodo',
        email: 'snodo@localhost',
        source: 'fallback',
      });
      target.write({ 'y.txt': 'y\n' });
      const commit = await commitWithMessage({
        cwd: target.root,
        message: 'fallback identity\n',
        stageAll: true,
      });
      expect(target.git(['log', '-1', '--format=%an <%ae> / %cn <%ce>', commit])).toBe(
        'snodo <snodo@localhost> / snodo <snodo@localhost>',
      );
    } finally {
      process.env.GIT_CONFIG_GLOBAL = configuration.globalConfig;
    }
  });
});

describe('mergeTrees and compareAndSwapReference', () => {
  it('reports conflicts without touching the index, working tree or refs', async () => {
    const target = repository();
    target.git(['checkout', '--quiet', '-b', 'topic']);
    const topic = target.commit('topic', { 'README.md': 'topic\n' });
    target.git(['checkout', '--quiet', 'trunk']);
    const trunk = target.commit('trunk', { 'README.md': 'trunk\n' });
    const result = await mergeTrees({ cwd: target.root, ours: trunk, theirs: topic });
    expect(result.conflictedFiles).toEqual(['README.md']);
    expect(target.revParse('trunk')).toBe(trunk);
    expect(await isWorkingTreeClean(target.root)).toBe(true);
    expect(existsSync(path.join(target.root, '.git', 'MERGE_HEAD'))).toBe(false);
  });

  it('refuses to move a ref whose value is not the expected one', async () => {
    const target = repository();
    const first = target.revParse('HEAD');
    const second = target.commit('second', { 'b.txt': 'b\n' });
    target.git(['branch', 'other', first]);
    const stale = await compareAndSwapReference({
      cwd: target.root,
      reference: 'refs/heads/other',
      next: second,
      expected: second,
      reflogMessage: 'test',
    });
    expect(stale).toBe(false);
    expect(target.revParse('other')).toBe(first);
    const fresh = await compareAndSwapReference({
      cwd: target.root,
      reference: 'refs/heads/other',
      next: second,
      expected: first,
      reflogMessage: 'test',
    });
    expect(fresh).toBe(true);
    expect(target.revParse('other')).toBe(second);
  });
});
