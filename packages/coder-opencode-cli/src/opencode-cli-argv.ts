/** What `buildOpencodeCliArgv` needs. */
export interface OpencodeCliArgvOptions {
  /** The program name or path, first element of the argv. */
  readonly binary: string;
  /** snodo's prompt, passed as one element. */
  readonly prompt: string;
  /** `provider/model` without snodo's `opencode-cli/` namespace; absent → OpenCode's configured default. */
  readonly model: string | undefined;
}

/**
 * The headless argv: `opencode run --format json [--model <provider/model>] -- <prompt>`.
 *
 * - `--format json` prints one JSON event per line (`step_start`, `text`, `tool_use`, `step_finish` with
 *   tokens and cost, `error`) while the session runs.
 * - The prompt goes after `--`, so a prompt starting with `-` is never read as a flag.
 *
 * NOTE: `opencode run` joins its message arguments and wraps each one that contains a space in double
 * quotes, escaping inner quotes (1.18.33, checked live): the model sees the prompt inside `"…"`.
 */
export function buildOpencodeCliArgv(options: OpencodeCliArgvOptions): string[] {
  const argv = [options.binary, 'run', '--format', 'json'];
  if (options.model !== undefined) argv.push('--model', options.model);
  argv.push('--', options.prompt);
  return argv;
}
