import { afterEach, describe, expect, it } from 'vitest';
import {
  commitAndDiff,
  createTemporaryRepository,
  type TemporaryRepository,
} from '../../testing/temporary-repository.js';
import { expectedTestPath, testsExistForModified } from './tests-exist-for-modified.js';

let repository: TemporaryRepository;
afterEach(() => repository?.remove());

describe('expectedTestPath', () => {
  it.each([
    ['tests/', 'test_{stem}.py', 'src/pkg/util.py', 'tests/test_util.py'],
    ['tests', 'test_{stem}.{ext}', 'src/util.py', 'tests/test_util.py'],
    ['', '{dir}/{stem}.test.{ext}', 'src/lib/parse.ts', 'src/lib/parse.test.ts'],
    ['spec/', '{path}.spec', 'lib/a.rb', 'spec/lib/a.rb.spec'],
  ])('%s + %s for %s → %s', (directory, pattern, source, expected) => {
    expect(expectedTestPath(directory, pattern, source)).toBe(expected);
  });
});

describe('tests_exist_for_modified on a real diff', () => {
  it('passes when each added or modified source file has its test at HEAD', async () => {
    repository = createTemporaryRepository();
    const diff = await commitAndDiff(repository, (repo) => {
      repo.write('src/util.py', 'def f(): pass\n');
      repo.write('tests/test_util.py', 'def test_f(): pass\n');
    });
    const result = testsExistForModified({ diff, task: 't' }, {});
    expect(result.passed).toBe(true);
    expect(result.evidence?.checked).toBe(1);
  });

  it('fails naming the missing test, ignoring deleted files and the tests themselves', async () => {
    repository = createTemporaryRepository();
    repository.write('src/obsolete.py', 'x = 1\n');
    repository.commit('setup');
    const diff = await commitAndDiff(repository, (repo) => {
      repo.write('src/service.py', 'def g(): pass\n');
      repo.write('tests/test_other.py', 'def test_other(): pass\n');
      repo.git('rm', '-q', 'src/obsolete.py');
    });
    const result = testsExistForModified({ diff, task: 't' }, {});
    expect(result.passed).toBe(false);
    expect(result.evidence?.missingTests).toEqual([
      { path: 'src/service.py', expected: 'tests/test_service.py' },
    ]);
    expect(result.justification).toContain('tests/test_service.py');
  });

  it('supports colocated tests and an include filter', async () => {
    repository = createTemporaryRepository();
    const diff = await commitAndDiff(repository, (repo) => {
      repo.write('src/parse.ts', 'export {};\n');
      repo.write('src/parse.test.ts', 'export {};\n');
      repo.write('src/format.ts', 'export {};\n');
      repo.write('docs/readme.md', 'docs\n');
    });
    const params = {
      test_dir_pattern: '',
      test_name_pattern: '{dir}/{stem}.test.{ext}',
      include: ['src/**/*.ts'],
    };
    const result = testsExistForModified({ diff, task: 't' }, params);
    expect(result.passed).toBe(false);
    expect(result.evidence?.missingTests).toEqual([
      { path: 'src/format.ts', expected: 'src/format.test.ts' },
    ]);
  });
});
