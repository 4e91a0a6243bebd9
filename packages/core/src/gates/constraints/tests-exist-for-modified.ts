import { posix } from 'node:path';
import type { GateFinding } from '../gate-verdict.js';
import { createScopeMatcher } from './files-in-scope.js';
import type { Predicate } from './predicate.js';
import { stringListParameter, stringParameter } from './predicate-parameters.js';

function escapeRegularExpression(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A regular expression for file names that already are tests under `namePattern` (placeholders as wildcards). */
function testNameExpression(namePattern: string): RegExp {
  const lastSegment = namePattern.slice(namePattern.lastIndexOf('/') + 1);
  const source = lastSegment
    .split(/(\{stem\}|\{ext\}|\{path\}|\{dir\})/)
    .map((part) => {
      if (part === '{stem}') return '.+';
      if (part === '{ext}') return '[^/.]+';
      if (part === '{path}' || part === '{dir}') return '.*';
      return escapeRegularExpression(part);
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** Fills a test name pattern for one source path. */
export function expectedTestPath(testDirectory: string, namePattern: string, sourcePath: string): string {
  const extension = posix.extname(sourcePath);
  const values: Record<string, string> = {
    stem: posix.basename(sourcePath, extension),
    ext: extension.replace(/^\./, ''),
    path: sourcePath,
    dir: posix.dirname(sourcePath) === '.' ? '' : posix.dirname(sourcePath),
  };
  const name = namePattern.replace(/\{(stem|ext|path|dir)\}/g, (_, key: string) => values[key] ?? '');
  return posix.normalize(posix.join(testDirectory, name)).replace(/^\.\//, '');
}

/**
 * `tests_exist_for_modified`: every added, modified or renamed file that is not itself a test must have a
 * test file at HEAD. Deleted files are ignored. Params:
 * - `test_dir_pattern` (default `tests/`): where tests live; files under it are tests. Empty means tests
 *   sit beside the code.
 * - `test_name_pattern` (default `test_{stem}.py`): the test's path under the test directory, with
 *   `{stem}` (file name without extension), `{ext}` (extension without the dot), `{path}` (the full
 *   source path, as in the Python original) and `{dir}` (the source's directory).
 * - `include` (default everything): globs of the source files that need tests, e.g. `src/**\/*.py`.
 * A file whose name already has the test shape (`test_foo.py`) counts as a test wherever it is.
 */
export const testsExistForModified: Predicate = (context, params) => {
  const testDirectory = stringParameter(params, 'test_dir_pattern') ?? 'tests/';
  const namePattern = stringParameter(params, 'test_name_pattern') ?? 'test_{stem}.py';
  const include = createScopeMatcher(stringListParameter(params, 'include') ?? ['**']);
  const directoryPrefix = testDirectory.replace(/^\.\//, '').replace(/\/*$/, '/');
  const isTestName = testNameExpression(namePattern);
  const missing: { path: string; expected: string }[] = [];
  let checked = 0;
  for (const file of context.diff.files) {
    if (file.status === 'D') continue;
    const isUnderTestDirectory = directoryPrefix !== '/' && file.path.startsWith(directoryPrefix);
    if (isUnderTestDirectory || isTestName.test(posix.basename(file.path)) || !include(file.path)) continue;
    checked += 1;
    const expected = expectedTestPath(testDirectory, namePattern, file.path);
    if (!context.diff.exists(expected)) missing.push({ path: file.path, expected });
  }
  if (missing.length === 0) {
    return {
      passed: true,
      justification:
        checked === 0
          ? 'No changed source file needs a test.'
          : `All ${checked} changed source file(s) have a test (${testDirectory}${namePattern}).`,
      evidence: { testDirPattern: testDirectory, testNamePattern: namePattern, checked },
    };
  }
  const findings: GateFinding[] = missing.map(({ path, expected }) => ({
    message: `${path} changed but its test ${expected} does not exist`,
    path,
  }));
  return {
    passed: false,
    justification: `Changed files without tests: ${missing.map(({ path, expected }) => `${path} (expected ${expected})`).join(', ')}.`,
    findings,
    evidence: { testDirPattern: testDirectory, testNamePattern: namePattern, missingTests: missing },
  };
};
