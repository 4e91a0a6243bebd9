/** What `buildGeminiCliArgv` needs. */
export interface GeminiCliArgvOptions {
  /** The program name or path, first element of the argv. */
  readonly binary: string;
  /** snodo's prompt, passed as one element. */
  readonly prompt: string;
  /** The model without snodo's `gemini-cli/` namespace; absent → Gemini CLI picks its default. */
  readonly model: string | undefined;
}

/**
 * The headless argv: `gemini --output-format stream-json --approval-mode yolo [--model <m>] --prompt=<p>`.
 *
 * - `stream-json` prints events while the run goes on, so snodo's idle limit sees progress and the
 *   transcript shows the tool calls; the final `result` event carries the token statistics.
 * - `yolo` approves every tool call: nobody answers prompts in a headless run, and snodo's worktree (plus
 *   its guards and gates) is the isolation. Gemini only honours it in a trusted folder, which the
 *   environment sets (`GEMINI_CLI_TRUST_WORKSPACE=true`).
 * - The prompt goes last as `--prompt=<p>`: a prompt that starts with `-` would otherwise be read as a flag
 *   by Gemini CLI's parser.
 */
export function buildGeminiCliArgv(options: GeminiCliArgvOptions): string[] {
  const argv = [options.binary, '--output-format', 'stream-json', '--approval-mode', 'yolo'];
  if (options.model !== undefined) argv.push('--model', options.model);
  argv.push(`--prompt=${options.prompt}`);
  return argv;
}
