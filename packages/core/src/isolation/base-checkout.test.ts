import { describe, expect, it } from 'vitest';
import { parseWorktreeList } from '../git/list-worktrees.js';
import { overlappingPaths } from './base-checkout.js';

describe('overlappingPaths', () => {
  it('finds the same path, and a file standing where the merge needs a directory (either way round)', () => {
    expect(overlappingPaths(['src/a.ts', 'notes.txt'], ['src/a.ts', 'src/b.ts'])).toEqual(['src/a.ts']);
    expect(overlappingPaths(['docs'], ['docs/new.md'])).toEqual(['docs']);
    expect(overlappingPaths(['build/out.js'], ['build'])).toEqual(['build/out.js']);
    expect(overlappingPaths(['src/a.tsx', 'srcx/a.ts'], ['src/a.ts'])).toEqual([]);
  });
});

describe('parseWorktreeList', () => {
  it('reads main, locked, detached and prunable entries from porcelain -z output', () => {
    const output = [
      'worktree /repo',
      'HEAD 1111111111111111111111111111111111111111',
      'branch refs/heads/trunk',
      '',
      'worktree /w/j_1',
      'HEAD 2222222222222222222222222222222222222222',
      'branch refs/heads/snodo/j_1-x',
      'locked snodo job j_1 pid 7\nwith a newline',
      '',
      'worktree /w/other',
      'HEAD 3333333333333333333333333333333333333333',
      'detached',
      'locked',
      'prunable gitdir file points to non-existent location',
      '',
      '',
    ].join('\0');
    expect(parseWorktreeList(output)).toEqual([
      {
        path: '/repo',
        head: '1111111111111111111111111111111111111111',
        ref: 'refs/heads/trunk',
        detached: false,
        bare: false,
        isMain: true,
        locked: false,
        prunable: false,
      },
      {
        path: '/w/j_1',
        head: '2222222222222222222222222222222222222222',
        ref: 'refs/heads/snodo/j_1-x',
        detached: false,
        bare: false,
        isMain: false,
        locked: true,
        lockReason: 'snodo job j_1 pid 7\nwith a newline',
        prunable: false,
      },
      {
        path: '/w/other',
        head: '3333333333333333333333333333333333333333',
        detached: true,
        bare: false,
        isMain: false,
        locked: true,
        prunable: true,
        prunableReason: 'gitdir file points to non-existent location',
      },
    ]);
  });
});
