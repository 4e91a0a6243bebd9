import { approveJob, mergeJob } from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { builtInCoders } from '../../coders/built-in-coders.js';
import { listenForInterrupts } from '../../interrupt.js';
import { resolveJobId } from '../../jobs/resolve-job-id.js';
import { createProgressRenderer } from '../../output/progress-renderer.js';
import { reportRunResult } from '../run/run-action.js';
import type { MERGE_STRATEGIES } from '../run/run-command.js';
import { taskOptions } from './task-options.js';

/** The flags of `snodo task merge` and `snodo task approve`. */
export interface TaskContinueFlags {
  readonly reason?: string | undefined;
  readonly strategy?: (typeof MERGE_STRATEGIES)[number] | undefined;
  readonly json?: boolean | undefined;
  /** `task approve --budget <usd>` / `--max-tokens <n>`: the higher caps a budget-stopped job goes on under. */
  readonly budget?: number | undefined;
  readonly maxTokens?: number | undefined;
}

/**
 * `snodo task approve <job> --reason …` and `snodo task merge <job>`: a human decision that continues a
 * kept job through the same pipeline (landing, or the coder and the post-execute gates for a job escalated
 * before it ran). Progress and the summary look like `snodo run`'s, and so do the exit codes.
 */
export async function taskContinueAction(
  context: CliContext,
  action: 'approve' | 'merge',
  reference: string,
  flags: TaskContinueFlags,
): Promise<number> {
  if (action === 'approve') {
    const { queueDecisionAction } = await import('../queue/queue-decision-action.js');
    const queued = await queueDecisionAction(context, 'approve', reference, flags);
    if (queued !== undefined) return queued;
  }
  const { jobId } = await resolveJobId(context.cwd, reference);
  const progress = createProgressRenderer(context);
  const interrupts = listenForInterrupts(() => progress.note('Cancelling (Ctrl-C again to quit at once)…'));
  try {
    const common = {
      ...taskOptions(context),
      jobId,
      coders: builtInCoders,
      signal: interrupts.signal,
      onEvent: (event: Parameters<typeof progress.handle>[0]) => progress.handle(event),
    };
    const result =
      action === 'approve'
        ? await approveJob({
            ...common,
            reason: flags.reason ?? '',
            maxCostUsd: flags.budget,
            maxTokens: flags.maxTokens,
          })
        : await mergeJob({
            ...common,
            ...(flags.strategy === undefined ? {} : { strategy: flags.strategy }),
          });
    progress.stop();
    return reportRunResult(context, result, flags.json === true);
  } finally {
    progress.stop();
    interrupts.dispose();
  }
}
