import { afterEach, describe, expect, it } from 'vitest';
import { createTemporaryRepository, type TemporaryRepository } from '../../testing/temporary-repository.js';
import { loadDiffContext, parseNameStatus } from './load-diff-context.js';

let repository: TemporaryRepository;
afterEach(() => repository?.remove());

describe('loadDiffContext', () => {
  it('lists added, modified, deleted and renamed files of base..HEAD from real git', async () => {
    repository = createTemporaryRepository();
    repository.write('src/keep.ts', 'export const a = 1;\n');
    repository.write('src/gone.ts', 'export const gone = true;\n');
    repository.write('src/old-name.ts', 'export const moved = "a long enough body so git sees a rename";\n');
    const base = repository.commit('base');
    repository.write('src/keep.ts', 'export const a = 2;\n');
    repository.git('rm', '-q', 'src/gone.ts');
    repository.git('mv', 'src/old-name.ts', 'src/new-name.ts');
    repository.write('src/added.ts', 'export const added = 1;\n');
    const head = repository.commit('change');

    const diff = await loadDiffContext({ cwd: repository.path, baseCommit: base });

    expect(diff.baseCommit).toBe(base);
    expect(diff.headCommit).toBe(head);
    expect([...diff.files].sort((left, right) => left.path.localeCompare(right.path))).toEqual([
      { path: 'src/added.ts', status: 'A' },
      { path: 'src/gone.ts', status: 'D' },
      { path: 'src/keep.ts', status: 'M' },
      { path: 'src/new-name.ts', status: 'R', previousPath: 'src/old-name.ts' },
    ]);
    expect(diff.patch).toContain('+export const a = 2;');
    expect(diff.patch).toContain('-export const a = 1;');
    expect(diff.readFile('src/keep.ts')).toBe('export const a = 2;\n');
    expect(diff.readFile('src/gone.ts')).toBeUndefined();
    expect(diff.exists('src/added.ts')).toBe(true);
    expect(diff.exists('src')).toBe(true);
    expect(diff.exists('src/gone.ts')).toBe(false);
  });

  it('reads a path written with ./ and trailing slashes, and refuses one with a long run of slashes', async () => {
    repository = createTemporaryRepository();
    const base = repository.git('rev-parse', 'HEAD');
    repository.write('src/app.ts', 'export {};\n');
    repository.commit('add');
    const diff = await loadDiffContext({ cwd: repository.path, baseCommit: base });
    expect(diff.exists('./src///')).toBe(true);
    expect(diff.readFile('./src/app.ts')).toBe('export {};\n');
    // Regression (issue 14): the trailing-slash regex rescanned such a run from each slash.
    expect(diff.exists(`src${'/'.repeat(200_000)}app.ts`)).toBe(false);
  });

  it('keeps unusual paths readable (spaces, non-ASCII) despite git quoting', async () => {
    repository = createTemporaryRepository();
    const base = repository.git('rev-parse', 'HEAD');
    repository.write('docs/naïve file.md', 'hello\n');
    repository.commit('add');
    const diff = await loadDiffContext({ cwd: repository.path, baseCommit: base });
    expect(diff.files).toEqual([{ path: 'docs/naïve file.md', status: 'A' }]);
    expect(diff.readFile('docs/naïve file.md')).toBe('hello\n');
  });

  it('reads the repository it was given, not one named by an inherited GIT_DIR (regression: the diff loader had its own git and inherited GIT_DIR)', async () => {
    repository = createTemporaryRepository();
    const decoy = createTemporaryRepository();
    try {
      const base = repository.git('rev-parse', 'HEAD');
      repository.write('real.txt', 'real\n');
      repository.commit('real change');
      decoy.write('decoy.txt', 'decoy\n');
      decoy.commit('decoy change');
      const saved = { ...process.env };
      process.env.GIT_DIR = `${decoy.path}/.git`;
      process.env.GIT_WORK_TREE = decoy.path;
      try {
        const diff = await loadDiffContext({ cwd: repository.path, baseCommit: base });
        expect(diff.files).toEqual([{ path: 'real.txt', status: 'A' }]);
        expect(diff.readFile('real.txt')).toBe('real\n');
      } finally {
        process.env = saved;
      }
    } finally {
      decoy.remove();
    }
  });

  it('rejects a base that does not resolve', async () => {
    repository = createTemporaryRepository();
    await expect(loadDiffContext({ cwd: repository.path, baseCommit: 'no-such-branch' })).rejects.toThrow();
  });
});

describe('parseNameStatus', () => {
  it('reads NUL-separated statuses including renames and copies', () => {
    expect(parseNameStatus('M\0a.ts\0R097\0old.ts\0new.ts\0C100\0x.ts\0y.ts\0T\0link\0')).toEqual([
      { path: 'a.ts', status: 'M' },
      { path: 'new.ts', status: 'R', previousPath: 'old.ts' },
      { path: 'y.ts', status: 'A', previousPath: 'x.ts' },
      { path: 'link', status: 'M' },
    ]);
  });
});
