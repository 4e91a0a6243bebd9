import { describe, expect, it } from 'vitest';
import { buildCodexArgv } from './codex-argv.js';

describe('buildCodexArgv', () => {
  it('runs exec with JSON lines, no approvals or sandbox, the worktree as root, the prompt last behind --', () => {
    const prompt = '--do not read me as a flag\nsecond line';
    expect(buildCodexArgv('codex', prompt, '/work/tree', undefined)).toEqual([
      'codex',
      'exec',
      '--json',
      '--dangerously-bypass-approvals-and-sandbox',
      '-C',
      '/work/tree',
      '-c',
      'analytics.enabled=false',
      '-c',
      'check_for_update_on_startup=false',
      '--',
      prompt,
    ]);
  });

  it('adds -m only when a model is given, and never --skip-git-repo-check (worktrees are repositories)', () => {
    expect(buildCodexArgv('codex', 'task', '/w', 'gpt-5.5').slice(-4)).toEqual([
      '-m',
      'gpt-5.5',
      '--',
      'task',
    ]);
    const argv = buildCodexArgv('codex', 'task', '/w', undefined);
    expect(argv).not.toContain('-m');
    expect(argv).not.toContain('--skip-git-repo-check');
  });
});
