import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProposalPathRefusedError } from '@snodo/coder-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyFileProposals } from './apply-file-proposals.js';
import { resolveWritePath } from './resolve-write-path.js';

let sandbox: string;
let root: string;
let outside: string;

function digest(directory: string): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(directory).sort())
    hash.update(name).update(readFileSync(join(directory, name)));
  return hash.digest('hex');
}

beforeEach(() => {
  sandbox = mkdtempSync(join(tmpdir(), 'snodo-paths-'));
  root = join(sandbox, 'worktree');
  outside = join(sandbox, 'outside');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'canary.txt'), 'canary');
  symlinkSync(outside, join(root, 'escape-dir'));
  symlinkSync(join(outside, 'canary.txt'), join(root, 'escape-file'));
  symlinkSync(join(outside, 'not-there.txt'), join(root, 'dangling'));
});
afterEach(() => rmSync(sandbox, { recursive: true, force: true }));

describe('resolveWritePath', () => {
  const hostile: Array<[string, RegExp]> = [
    ['', /empty/],
    ['../x', /'\.\.'/],
    ['a/../../x', /'\.\.'/],
    ['src/../../outside/canary.txt', /'\.\.'/],
    ['/etc/passwd', /absolute/],
    ['..\\x', /backslash/],
    ['a\0b', /NUL/],
    ['.snodo/protocol.yml', /\.snodo/],
    ['.SNODO/protocol.yml', /\.SNODO/],
    ['sub/.snodo/x', /\.snodo/],
    ['.git/hooks/pre-commit', /\.git/],
    ['.GIT/config', /\.GIT/],
    ['sub/../.git/config', /'\.\.'/],
    ['./.git/config', /\.git/],
    ['escape-dir/new.txt', /outside the worktree/],
    ['escape-dir/canary.txt', /outside the worktree/],
    ['escape-file', /symbolic link/],
    ['dangling', /symbolic link/],
    ['.', /worktree itself/],
  ];

  for (const [path, reason] of hostile) {
    it(`refuses ${JSON.stringify(path)}`, () => {
      let caught: unknown;
      try {
        resolveWritePath(root, path);
      } catch (error) {
        caught = error;
      }
      expect(ProposalPathRefusedError.isInstance(caught)).toBe(true);
      expect((caught as ProposalPathRefusedError).message).toMatch(reason);
      expect((caught as ProposalPathRefusedError).path).toBe(path);
    });
  }

  it('accepts ordinary relative paths, new directories included', () => {
    expect(resolveWritePath(root, 'src/app.ts')).toMatch(/worktree\/src\/app\.ts$/);
    expect(resolveWritePath(root, './docs/new/guide.md')).toMatch(/worktree\/docs\/new\/guide\.md$/);
    expect(resolveWritePath(root, '.github/workflows/ci.yml')).toMatch(/\.github\/workflows\/ci\.yml$/);
  });
});

describe('applyFileProposals', () => {
  it('writes and deletes inside the worktree', () => {
    writeFileSync(join(root, 'old.txt'), 'old');
    const written = applyFileProposals(root, [
      { path: 'src/app.ts', action: 'write', content: 'export {};\n' },
      { path: 'old.txt', action: 'delete' },
    ]);
    expect(written).toEqual(['old.txt', 'src/app.ts']);
    expect(readFileSync(join(root, 'src/app.ts'), 'utf8')).toBe('export {};\n');
    expect(readdirSync(root)).not.toContain('old.txt');
  });

  it('writes nothing when any one path is refused, and the outside stays unchanged', () => {
    const before = digest(outside);
    expect(() =>
      applyFileProposals(root, [
        { path: 'src/fine.ts', action: 'write', content: 'x' },
        { path: 'escape-dir/evil.txt', action: 'write', content: 'evil' },
      ]),
    ).toThrow(/escape-dir\/evil\.txt/);
    expect(readdirSync(join(root, 'src'))).toEqual([]);
    expect(digest(outside)).toBe(before);
  });
});
