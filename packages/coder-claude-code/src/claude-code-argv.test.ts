import { describe, expect, it } from 'vitest';
import { buildClaudeCodeArgv } from './claude-code-argv.js';

describe('buildClaudeCodeArgv', () => {
  it('runs print mode with JSON lines, accepted edits and explicit tools, the prompt last behind --', () => {
    const prompt = '--do not read me as a flag\nsecond line';
    expect(buildClaudeCodeArgv('claude', prompt, undefined)).toEqual([
      'claude',
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'acceptEdits',
      '--allowedTools',
      'Bash,Edit,Write,NotebookEdit,Read',
      '--disallowedTools',
      'EnterWorktree,ExitWorktree',
      '--',
      prompt,
    ]);
  });

  it('adds --model only when a model is given', () => {
    const withModel = buildClaudeCodeArgv('claude', 'task', 'claude-sonnet-4-5');
    expect(withModel.slice(-4)).toEqual(['--model', 'claude-sonnet-4-5', '--', 'task']);
    expect(buildClaudeCodeArgv('claude', 'task', undefined)).not.toContain('--model');
  });

  it('never asks to bypass permissions, which Claude Code refuses when running as root', () => {
    const argv = buildClaudeCodeArgv('claude', 'task', undefined);
    expect(argv).not.toContain('--dangerously-skip-permissions');
    expect(argv).not.toContain('bypassPermissions');
  });
});
