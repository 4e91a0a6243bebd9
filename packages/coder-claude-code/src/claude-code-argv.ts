/**
 * Tools Claude Code may use without asking. In print mode nobody can answer a permission prompt, so a tool
 * that would ask is denied; `acceptEdits` already allows file edits inside the working directory, and this
 * list adds shell commands. Passed explicitly because some environments make Claude Code fall back to its
 * default permission mode (peers.md B.4), and an explicit list still holds there.
 */
export const CLAUDE_CODE_ALLOWED_TOOLS: readonly string[] = ['Bash', 'Edit', 'Write', 'NotebookEdit', 'Read'];

/**
 * Tools Claude Code must not use in a snodo run: they move the session into another git worktree, so its
 * edits would land outside the task worktree that snodo commits from.
 */
export const CLAUDE_CODE_DISALLOWED_TOOLS: readonly string[] = ['EnterWorktree', 'ExitWorktree'];

/**
 * The headless argv: `claude -p` with JSON lines on stdout (`stream-json` needs `--verbose`), edits accepted
 * and shell commands allowed without prompts, the model flag only when a model is given, and the prompt as
 * the last single argument behind `--`, so a prompt starting with `-` is never read as a flag.
 *
 * NOTE: `--permission-mode bypassPermissions` (and `--dangerously-skip-permissions`) exit at once when the
 * process runs as root, which is the normal case in containers and CI; `acceptEdits` plus an explicit
 * `--allowedTools` runs everywhere and denies, instead of prompting for, anything else.
 */
export function buildClaudeCodeArgv(binary: string, prompt: string, model: string | undefined): string[] {
  const argv = [
    binary,
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    '--permission-mode',
    'acceptEdits',
    '--allowedTools',
    CLAUDE_CODE_ALLOWED_TOOLS.join(','),
    '--disallowedTools',
    CLAUDE_CODE_DISALLOWED_TOOLS.join(','),
  ];
  if (model !== undefined) argv.push('--model', model);
  argv.push('--', prompt);
  return argv;
}
