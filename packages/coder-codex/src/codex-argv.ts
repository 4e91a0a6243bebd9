/**
 * The headless argv: `codex exec` with JSON lines on stdout, no approvals and no Codex sandbox, the
 * worktree as its root, analytics off, the model flag only when a model is given, and the prompt as the
 * last single argument behind `--`, so a prompt starting with `-` is never read as a flag.
 *
 * NOTE: Codex's own sandbox wraps every command in a vendored bubblewrap, which cannot start in an
 * unprivileged container (openai/codex #46246) and sometimes fails with exit 0. snodo's isolation is the
 * task worktree, its guards and the gates after the run, so the sandbox is turned off explicitly rather
 * than left to fail silently. Worktrees are git repositories, so `--skip-git-repo-check` is not needed.
 */
export function buildCodexArgv(
  binary: string,
  prompt: string,
  workspace: string,
  model: string | undefined,
): string[] {
  const argv = [
    binary,
    'exec',
    '--json',
    '--dangerously-bypass-approvals-and-sandbox',
    '-C',
    workspace,
    '-c',
    'analytics.enabled=false',
    '-c',
    'check_for_update_on_startup=false',
  ];
  if (model !== undefined) argv.push('-m', model);
  argv.push('--', prompt);
  return argv;
}
