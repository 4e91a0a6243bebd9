import picomatch from 'picomatch';
import type { GateFinding } from '../gate-verdict.js';
import type { Predicate } from './predicate.js';
import { stringListParameter } from './predicate-parameters.js';

/**
 * Compiles scope globs into one test. Semantics (picomatch, `dot: true`):
 * - `*` matches within one path segment and never crosses `/`; `**` matches any number of segments.
 *   The Python original used `fnmatch`, where `*` also crossed `/`: there `src/*` allowed
 *   `src/a/b.py`; here it allows only `src/a.py`, and `src/**` is needed for the whole tree.
 * - A pattern ending in `/` means the whole directory (`src/` = `src/**`).
 * - A pattern starting with `!` excludes: a path is in scope when it matches some plain pattern and no
 *   excluding one.
 * - Dotfiles match like any other file (`src/**` covers `src/.env`).
 */
export function createScopeMatcher(patterns: readonly string[]): (path: string) => boolean {
  const expand = (pattern: string) => (pattern.endsWith('/') ? `${pattern}**` : pattern);
  const include = patterns.filter((pattern) => !pattern.startsWith('!')).map(expand);
  const exclude = patterns
    .filter((pattern) => pattern.startsWith('!'))
    .map((pattern) => expand(pattern.slice(1)));
  const options = { dot: true };
  const included = include.length > 0 ? picomatch(include, options) : () => false;
  const excluded = exclude.length > 0 ? picomatch(exclude, options) : () => false;
  return (path) => included(path) && !excluded(path);
}

/**
 * `files_in_scope`: every path the diff touches, including deleted files and both sides of a rename, must
 * be in scope. Params: `scope_paths` (or `paths`), a list of globs; absent means everything (`**`).
 */
export const filesInScope: Predicate = (context, params) => {
  const scope = stringListParameter(params, 'scope_paths') ?? stringListParameter(params, 'paths') ?? ['**'];
  const inScope = createScopeMatcher(scope);
  const outOfScope: string[] = [];
  for (const file of context.diff.files) {
    for (const path of [file.previousPath, file.path]) {
      if (path !== undefined && !inScope(path) && !outOfScope.includes(path)) outOfScope.push(path);
    }
  }
  if (outOfScope.length === 0) {
    return {
      passed: true,
      justification: `All ${context.diff.files.length} changed file(s) are within scope ${scope.join(', ')}.`,
      evidence: { scopePaths: scope },
    };
  }
  const findings: GateFinding[] = outOfScope.map((path) => ({
    message: `${path} is outside the allowed scope (${scope.join(', ')})`,
    path,
  }));
  return {
    passed: false,
    justification: `${outOfScope.length} changed file(s) outside scope ${scope.join(', ')}: ${outOfScope.join(', ')}.`,
    findings,
    evidence: { scopePaths: scope, outOfScopeFiles: outOfScope },
  };
};
