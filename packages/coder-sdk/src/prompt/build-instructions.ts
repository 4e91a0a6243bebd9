import type { CoderPromptInput } from './coder-prompt-input.js';

/** The rules every coder gets, whatever the mode says. Kept in one place so prompt and file agree. */
export const CODER_GROUND_RULES: readonly string[] = [
  'Work only inside this directory (the task worktree). Do not write anywhere else.',
  'Do not create, change or delete anything under .snodo/ (the rules this change is judged by) or .git ' +
    '(hooks, config): such a change is refused and the run is stopped.',
  'Do not commit, amend, rebase or switch branches: snodo commits your changes in one commit when you finish.',
  'Do not push, publish or deploy anything.',
];

function normalise(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

function bulletList(items: readonly string[]): string {
  return items.map((item) => `- ${normalise(item).replace(/\n/g, '\n  ')}`).join('\n');
}

/**
 * The sections shared by the prompt and the instructions file: mode, constraints, scope and the ground
 * rules. Markdown, deterministic (same input, same text), no timestamps.
 */
export function buildGuidanceSections(
  input: Omit<CoderPromptInput, 'task' | 'attempt' | 'findings'>,
): string[] {
  const sections: string[] = [];
  const modeTitle =
    input.modeName === undefined || normalise(input.modeName) === '' ? undefined : normalise(input.modeName);
  const instructions = input.instructions === undefined ? '' : normalise(input.instructions);
  if (modeTitle !== undefined || instructions !== '') {
    const heading = modeTitle === undefined ? '## Mode' : `## Mode: ${modeTitle}`;
    sections.push(instructions === '' ? heading : `${heading}\n\n${instructions}`);
  }
  const constraints = (input.constraints ?? []).filter((entry) => normalise(entry) !== '');
  if (constraints.length > 0) {
    sections.push(
      `## Constraints\n\nThe change must respect every one of these:\n\n${bulletList(constraints)}`,
    );
  }
  const scope = (input.scope ?? []).filter((entry) => normalise(entry) !== '');
  if (scope.length > 0) {
    sections.push(
      `## Scope\n\nChange only files matching these patterns; anything else fails the checks:\n\n${bulletList(scope)}`,
    );
  }
  sections.push(`## Rules\n\n${bulletList(CODER_GROUND_RULES)}`);
  return sections;
}

/**
 * The text of the snodo-owned instructions file an in-place coder's CLI reads (placed in the worktree by
 * `InPlaceCoderAdapter`, excluded from git): the mode, constraints, scope, and the rules that `.snodo/`
 * and `.git` are off limits and that snodo makes the commit. The task itself is not in it; it travels in
 * the prompt.
 */
export function buildInstructions(input: Omit<CoderPromptInput, 'task' | 'attempt' | 'findings'>): string {
  return `# Instructions from snodo\n\n${buildGuidanceSections(input).join('\n\n')}\n`;
}
