import type { TaskCommandOptions } from '@snodo/core/jobs';
import type { CliContext } from '../../cli-context.js';

/** The options every core task function takes, from the CLI's context. */
export function taskOptions(context: CliContext): TaskCommandOptions {
  return { cwd: context.cwd, env: context.env, homeDirectory: context.homeDirectory };
}
