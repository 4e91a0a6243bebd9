import { type RunTaskResult, runTask, type TaskRequest } from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { builtInCoders } from '../../coders/built-in-coders.js';
import { exitCodeForResult } from '../../exit-codes.js';
import { listenForInterrupts } from '../../interrupt.js';
import { createProgressRenderer } from '../../output/progress-renderer.js';
import { formatRunSummary } from '../../output/run-summary.js';
import { watchClosedOutput } from './closed-output.js';
import type { MERGE_STRATEGIES } from './run-command.js';

/** The flags of `snodo run`, as commander parsed them. */
export interface RunFlags {
  readonly coder?: string | undefined;
  readonly model?: string | undefined;
  /** The coder's model from a second, namespaced `-m` (the first is then the judging model). */
  readonly coderModel?: string | undefined;
  readonly mock?: boolean | undefined;
  readonly mode?: string | undefined;
  /** `false` for `--no-isolation`. */
  readonly isolation?: boolean | undefined;
  readonly base?: string | undefined;
  readonly merge?: (typeof MERGE_STRATEGIES)[number] | undefined;
  readonly timeout?: number | undefined;
  /** `--max-cost <usd>` and `--max-tokens <n>`: the job's caps (core refuses unusable values). */
  readonly maxCost?: number | undefined;
  readonly maxTokens?: number | undefined;
  readonly strict?: boolean | undefined;
  readonly dryRun?: boolean | undefined;
  readonly json?: boolean | undefined;
  /** `--background`: start the run detached and print its job id. */
  readonly background?: boolean | undefined;
}

/** The task request the flags make: what `runTask` and `planTask` are asked, the same for every caller. */
export function taskRequestFromFlags(task: string, flags: RunFlags): TaskRequest {
  return {
    task,
    coder: flags.coder,
    model: flags.model,
    coderModel: flags.coderModel,
    mock: flags.mock === true,
    mode: flags.mode,
    isolation: flags.isolation !== false,
    base: flags.base,
    mergeStrategy: flags.merge,
    timeoutSeconds: flags.timeout,
    maxCostUsd: flags.maxCost,
    maxTokens: flags.maxTokens,
  };
}

/**
 * Prints how a run ended: the summary (or the JSON document) on stdout and, for a failure, the error and
 * its fix on stderr. Shared by `snodo run` and `snodo task approve|merge`, which end the same way.
 */
export function reportRunResult(context: CliContext, result: RunTaskResult, json: boolean): number {
  if (json) context.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else context.stdout.write(formatRunSummary(result, context.out));
  if (result.status === 'failed' && result.error !== undefined) {
    const palette = context.err;
    context.stderr.write(`${palette.red(palette.bold('error:'))} ${result.error.message}\n`);
    if (context.verbose) context.stderr.write(palette.dim(`code: ${result.error.code}\n`));
  }
  return exitCodeForResult(result);
}

/**
 * `snodo run`: starts `runTask`, renders its events on stderr as they come, and prints the result. The first
 * Ctrl-C cancels the run through its AbortSignal (the job is kept as `cancelled`); a second exits at once.
 * A closed stdout or stderr (`| head -2`) cancels it the same way.
 */
export async function runAction(context: CliContext, task: string, flags: RunFlags): Promise<number> {
  if (flags.background === true) {
    const { backgroundRunAction } = await import('./background-run-action.js');
    return backgroundRunAction(context, task, flags);
  }
  if (flags.dryRun === true) {
    const { dryRunAction } = await import('./dry-run-action.js');
    return dryRunAction(context, task, flags);
  }
  const progress = createProgressRenderer(context);
  const interrupts = listenForInterrupts(() =>
    progress.note('Cancelling: stopping the coder and keeping the job (Ctrl-C again to quit at once)…'),
  );
  const closed = watchClosedOutput([context.stdout, context.stderr]);
  try {
    const handle = runTask({
      ...taskRequestFromFlags(task, flags),
      cwd: context.cwd,
      env: context.env,
      homeDirectory: context.homeDirectory,
      coders: builtInCoders,
      strict: flags.strict === true,
      signal: AbortSignal.any([interrupts.signal, closed.signal]),
    });
    for await (const event of handle.events) progress.handle(event);
    const result = await handle.result;
    progress.stop();
    return reportRunResult(context, result, flags.json === true);
  } finally {
    progress.stop();
    interrupts.dispose();
    closed.dispose();
  }
}
