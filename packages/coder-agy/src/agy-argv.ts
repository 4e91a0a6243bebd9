/** What `buildAgyArgv` needs. */
export interface AgyArgvOptions {
  /** The program name or path, first element of the argv. */
  readonly binary: string;
  /** snodo's prompt, passed as one element: the value of `-p`, last. */
  readonly prompt: string;
  /** The worktree, given with `--add-dir`. */
  readonly workspace: string;
  /** The model without snodo's `agy/` namespace; absent → agy's configured default. */
  readonly model: string | undefined;
  /** agy's own limit on a print-mode run, in whole seconds. */
  readonly printTimeoutSeconds: number;
}

/**
 * The print-mode argv, from the CLI's documentation:
 * `agy --output-format=json --dangerously-skip-permissions --add-dir <worktree> [--model=<m>]
 * --print-timeout=<n>s -p <prompt>`.
 *
 * - `--output-format=json` prints one envelope at the end (status, response, conversation id, turns,
 *   duration, usage). Enum-valued flags are written with `=`: agy 1.2.14 does not take them space-separated.
 * - `--dangerously-skip-permissions`: nobody can approve a tool call in print mode; snodo's worktree, its
 *   guards and gates are the isolation.
 * - `--add-dir <worktree>`: without it agy writes into its own scratch directory
 *   (`~/.gemini/antigravity-cli/scratch/`) instead of the repository.
 * - `--print-timeout`: agy stops print mode after 5 minutes by default; it gets snodo's own limit plus a
 *   minute, so snodo's wall-clock limit is the one that fires.
 * - `-p <prompt>` comes last: agy takes the prompt only as the value of `-p` and never reads stdin.
 */
export function buildAgyArgv(options: AgyArgvOptions): string[] {
  const argv = [
    options.binary,
    '--output-format=json',
    '--dangerously-skip-permissions',
    '--add-dir',
    options.workspace,
  ];
  if (options.model !== undefined) argv.push(`--model=${options.model}`);
  argv.push(`--print-timeout=${options.printTimeoutSeconds}s`, '-p', options.prompt);
  return argv;
}
