import { describe, expect, it } from 'vitest';
import { parseAddedLines, unquoteGitPath } from './parse-added-lines.js';

const patch = [
  'diff --git a/src/app.ts b/src/app.ts',
  'index 1111111..2222222 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,3 +1,4 @@',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 3;',
  '+++counter;',
  ' const c = 4;',
  '@@ -10 +11 @@',
  '-old',
  '+new',
  'diff --git a/gone.ts b/gone.ts',
  'deleted file mode 100644',
  '--- a/gone.ts',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-removed',
  '',
].join('\n');

describe('parseAddedLines', () => {
  it('returns added lines with new-file line numbers and never a +++ header', () => {
    expect(parseAddedLines(patch)).toEqual([
      { path: 'src/app.ts', line: 2, text: 'const b = 3;' },
      { path: 'src/app.ts', line: 3, text: '++counter;' },
      { path: 'src/app.ts', line: 11, text: 'new' },
    ]);
  });

  it('decodes quoted paths', () => {
    expect(unquoteGitPath('"b/sp\\303\\251cial \\"x\\".txt"')).toBe('b/spécial "x".txt');
    expect(unquoteGitPath('b/plain.txt')).toBe('b/plain.txt');
  });
});
