import { afterEach, describe, expect, it } from 'vitest';
import {
  commitAndDiff,
  createTemporaryRepository,
  type TemporaryRepository,
} from '../../testing/temporary-repository.js';
import { createScopeMatcher, filesInScope } from './files-in-scope.js';

let repository: TemporaryRepository;
afterEach(() => repository?.remove());

describe('createScopeMatcher (glob semantics)', () => {
  // The Python original used fnmatch, where `*` crossed `/`: `src/*` matched `src/a/b.py` there.
  it.each([
    ['src/*', 'src/a.ts', true],
    ['src/*', 'src/a/b.ts', false],
    ['src/**', 'src/a/b.ts', true],
    ['src/**', 'src/a.ts', true],
    ['src/', 'src/deep/er/file.ts', true],
    ['src/**/*.ts', 'src/a/b.ts', true],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/a/b.js', false],
    ['*.md', 'README.md', true],
    ['*.md', 'docs/guide.md', false],
    ['**/*.md', 'docs/guide.md', true],
    ['src/**', 'src/.env', true],
    ['src/**', 'lib/a.ts', false],
    ['**', '.github/workflows/ci.yml', true],
  ])('%s matches %s: %s', (pattern, path, expected) => {
    expect(createScopeMatcher([pattern])(path)).toBe(expected);
  });

  it('excludes with !patterns', () => {
    const inScope = createScopeMatcher(['src/**', '!src/generated/**']);
    expect(inScope('src/a.ts')).toBe(true);
    expect(inScope('src/generated/schema.ts')).toBe(false);
  });
});

describe('files_in_scope on a real diff', () => {
  it('passes when every changed path is in scope', async () => {
    repository = createTemporaryRepository();
    const diff = await commitAndDiff(repository, (repo) => {
      repo.write('src/a.ts', 'a\n');
      repo.write('src/nested/b.ts', 'b\n');
    });
    const result = filesInScope({ diff, task: 't' }, { scope_paths: ['src/**'] });
    expect(result.passed).toBe(true);
  });

  it('fails naming every out-of-scope path, including deletions and both sides of a rename', async () => {
    repository = createTemporaryRepository();
    repository.write('lib/legacy.ts', 'a long line so that git detects the rename reliably\n');
    repository.write('lib/remove-me.ts', 'x\n');
    repository.commit('setup');
    const diff = await commitAndDiff(repository, (repo) => {
      repo.write('src/ok.ts', 'ok\n');
      repo.git('mv', 'lib/legacy.ts', 'src/legacy.ts');
      repo.git('rm', '-q', 'lib/remove-me.ts');
      repo.write('package.json', '{}\n');
    });
    const result = filesInScope({ diff, task: 't' }, { paths: ['src/**'] });
    expect(result.passed).toBe(false);
    expect(result.evidence?.outOfScopeFiles).toEqual(
      expect.arrayContaining(['lib/legacy.ts', 'lib/remove-me.ts', 'package.json']),
    );
    expect(result.evidence?.outOfScopeFiles).not.toContain('src/ok.ts');
    expect(result.findings?.map((finding) => finding.path)).toContain('package.json');
  });

  it('`*` does not cross directories (unlike the Python original)', async () => {
    repository = createTemporaryRepository();
    const diff = await commitAndDiff(repository, (repo) => repo.write('src/deep/a.ts', 'a\n'));
    expect(filesInScope({ diff, task: 't' }, { scope_paths: ['src/*'] }).passed).toBe(false);
    expect(filesInScope({ diff, task: 't' }, { scope_paths: ['src/**'] }).passed).toBe(true);
  });

  it('treats absent params as everything in scope and rejects a malformed list', async () => {
    repository = createTemporaryRepository();
    const diff = await commitAndDiff(repository, (repo) => repo.write('anything/x.ts', 'x\n'));
    expect(filesInScope({ diff, task: 't' }, {}).passed).toBe(true);
    expect(() => filesInScope({ diff, task: 't' }, { scope_paths: [1, 2] })).toThrow(/scope_paths/);
  });
});
