import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCommitReaders } from './commit-reader.js';
import { resolveCommit, resolveCommits, revParse } from './rev-parse.js';
import { useIsolatedGitConfiguration } from './test-repository.js';

let configuration: ReturnType<typeof useIsolatedGitConfiguration>;
let scratch: string;
beforeAll(() => {
  configuration = useIsolatedGitConfiguration();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'snodo-reader-'));
});
afterAll(() => {
  closeCommitReaders();
  configuration.restore();
  rmSync(scratch, { recursive: true, force: true });
});

const gitIn = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

function repositoryWithCommits(
  name: string,
  count: number,
  label = name,
): { directory: string; commits: string[] } {
  const directory = path.join(scratch, name);
  mkdirSync(directory, { recursive: true });
  gitIn(directory, 'init', '-q', '-b', 'main');
  const commits: string[] = [];
  for (let index = 0; index < count; index += 1) {
    gitIn(directory, 'commit', '-q', '--allow-empty', '-m', `${label} ${index}`);
    commits.push(gitIn(directory, 'rev-parse', 'HEAD'));
  }
  return { directory, commits };
}

describe('ref lookups through the long-lived reader', () => {
  it('sees refs moved, created and deleted by other processes between questions', async () => {
    const { directory, commits } = repositoryWithCommits('moving', 2);
    expect(await resolveCommits(directory, ['refs/heads/main', 'refs/heads/other'])).toEqual([
      commits[1],
      undefined,
    ]);
    gitIn(directory, 'update-ref', 'refs/heads/main', commits[0] as string);
    gitIn(directory, 'branch', 'other', commits[1] as string);
    expect(await resolveCommits(directory, ['refs/heads/main', 'refs/heads/other'])).toEqual([
      commits[0],
      commits[1],
    ]);
    gitIn(directory, 'pack-refs', '--all');
    gitIn(directory, 'update-ref', '-d', 'refs/heads/other');
    expect(await resolveCommit(directory, 'refs/heads/other')).toBeUndefined();
    gitIn(directory, 'commit', '-q', '--allow-empty', '-m', 'made after the reader started');
    expect(await resolveCommit(directory, 'HEAD')).toBe(gitIn(directory, 'rev-parse', 'HEAD'));
  });

  it('answers like rev-parse --verify: trees are not commits, junk names nothing, a tree id is still an object', async () => {
    const { directory, commits } = repositoryWithCommits('kinds', 1);
    const tree = gitIn(directory, 'rev-parse', 'HEAD^{tree}');
    expect(await resolveCommits(directory, [tree, '--all', 'no such ref', 'HEAD~5'])).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(await revParse(directory, 'HEAD^{tree}')).toBe(tree);
    expect(await revParse(directory, 'HEAD')).toBe(commits[0]);
    await expect(revParse(directory, 'refs/heads/missing')).rejects.toThrow();
    await expect(resolveCommits(directory, ['two\nlines'])).rejects.toThrow(/bad revision/);
  });

  it('never answers from the repository that was at the same path before', async () => {
    const first = repositoryWithCommits('remade', 1);
    expect(await resolveCommit(first.directory, 'HEAD')).toBe(first.commits[0]);
    rmSync(first.directory, { recursive: true, force: true });
    const second = repositoryWithCommits('remade', 1, 'the second repository');
    expect(second.commits[0]).not.toBe(first.commits[0]);
    expect(await resolveCommit(second.directory, 'HEAD')).toBe(second.commits[0]);
  });

  it('is answered by a one-shot git in a subdirectory, where no reader is kept', async () => {
    const { directory, commits } = repositoryWithCommits('nested', 1);
    mkdirSync(path.join(directory, 'sub'));
    expect(await resolveCommit(path.join(directory, 'sub'), 'HEAD')).toBe(commits[0]);
  });

  it('does not hold a process open: a script that asked exits by itself and leaves no git behind', async () => {
    const { directory, commits } = repositoryWithCommits('exit', 1);
    const reader = path.join(import.meta.dirname, 'rev-parse.ts');
    const script =
      `const { resolveCommit } = await import(${JSON.stringify(reader)});` +
      `console.log(await resolveCommit(${JSON.stringify(directory)}, 'HEAD'));`;
    const started = Date.now();
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: path.join(import.meta.dirname, '..', '..'),
      timeout: 30_000,
    });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe(commits[0]);
    // The idle timer is 5 s; an exit that waited for it (or for the child) would take longer than
    // the whole start-up does. Not a speed assertion: a hang would be 30 s.
    expect(Date.now() - started).toBeLessThan(20_000);
    const leftover = spawnSync('pgrep', ['-f', `cat-file --batch-check.*`], { encoding: 'utf8' });
    const ours = leftover.stdout
      .split('\n')
      .filter((pid) => pid !== '')
      .filter((pid) => {
        try {
          return execFileSync('readlink', [`/proc/${pid}/cwd`], { encoding: 'utf8' }).trim() === directory;
        } catch {
          return false;
        }
      });
    expect(ours).toEqual([]);
  });
});
