import type { CliContext } from '../cli-context.js';

/**
 * What each command's registration needs: the context its action will run with, and a way to report the
 * action's exit code back to `main` (commander's `parseAsync` returns the program, not a value).
 */
export interface CommandRuntime {
  /** The process context, shared by every command. */
  readonly context: CliContext;
  /** Records the exit code of the action that ran. */
  setExitCode(code: number): void;
}
