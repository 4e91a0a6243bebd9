import { describe, expect, it } from 'vitest';
import { buildCoderPrompt } from './build-coder-prompt.js';
import { buildInstructions } from './build-instructions.js';

const rules =
  '## Rules\n\n' +
  '- Work only inside this directory (the task worktree). Do not write anywhere else.\n' +
  '- Do not create, change or delete anything under .snodo/ (the rules this change is judged by) or .git ' +
  '(hooks, config): such a change is refused and the run is stopped.\n' +
  '- Do not commit, amend, rebase or switch branches: snodo commits your changes in one commit when you finish.\n' +
  '- Do not push, publish or deploy anything.';

describe('buildCoderPrompt', () => {
  it('builds the first-attempt prompt: task, mode, constraints, scope, rules', () => {
    const prompt = buildCoderPrompt({
      task: '  Add rate limiting to the login route\r\n\r\nUse a sliding window.  ',
      modeName: 'Feature',
      instructions: 'Write tests first.',
      constraints: ['No new dependencies', 'Keep the public API'],
      scope: ['src/auth/**', 'test/**'],
      attempt: 1,
    });
    expect(prompt).toBe(
      '# Task\n\nAdd rate limiting to the login route\n\nUse a sliding window.\n\n' +
        '## Mode: Feature\n\nWrite tests first.\n\n' +
        '## Constraints\n\nThe change must respect every one of these:\n\n- No new dependencies\n- Keep the public API\n\n' +
        '## Scope\n\nChange only files matching these patterns; anything else fails the checks:\n\n- src/auth/**\n- test/**\n\n' +
        `${rules}\n`,
    );
  });

  it('folds the findings of the previous attempt into a fix-round prompt', () => {
    const prompt = buildCoderPrompt({
      task: 'Add rate limiting',
      attempt: 2,
      findings: [
        {
          validatorId: 'security',
          severity: 'blocker',
          justification: 'The limit is per process,\nnot per user.',
        },
        { validatorId: 'testing', severity: 'warn', justification: 'No test for the reset.' },
      ],
    });
    expect(prompt).toBe(
      '# Task\n\nAdd rate limiting\n\n' +
        '## Findings to address\n\nThis is attempt 2. Your previous attempt is already committed in this worktree; ' +
        'change it so the checks below pass, and keep what was right.\n\n' +
        '- [blocker] security: The limit is per process,\n  not per user.\n' +
        '- [warn] testing: No test for the reset.\n\n' +
        `${rules}\n`,
    );
  });

  it('is deterministic', () => {
    const input = { task: 'x', attempt: 3, findings: [] };
    expect(buildCoderPrompt(input)).toBe(buildCoderPrompt(input));
    expect(buildCoderPrompt(input)).toContain('## Previous attempt\n\nThis is attempt 3.');
  });
});

describe('buildInstructions', () => {
  it('holds the mode, constraints, scope and rules but not the task', () => {
    expect(buildInstructions({ modeName: 'Defect', constraints: ['Add a regression test'], scope: [] })).toBe(
      '# Instructions from snodo\n\n## Mode: Defect\n\n' +
        '## Constraints\n\nThe change must respect every one of these:\n\n- Add a regression test\n\n' +
        `${rules}\n`,
    );
  });

  it('still carries the rules when there is no mode', () => {
    expect(buildInstructions({})).toBe(`# Instructions from snodo\n\n${rules}\n`);
  });
});
