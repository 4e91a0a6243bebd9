import { runTask } from '@snodo/core';
import { findMainCheckout, jobPaths } from '@snodo/core/jobs';
import type { CliContext } from '../../cli-context.js';
import { builtInCoders } from '../../coders/built-in-coders.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { readBackgroundRequest } from '../../jobs/background-request.js';
import { createProgressRenderer } from '../../output/progress-renderer.js';
import { reportRunResult, taskRequestFromFlags } from '../run/run-action.js';

/**
 * Cancellation of a detached run. SIGTERM or SIGINT (`kill`, a supervisor) cancels it like Ctrl-C, a second
 * one exits at once; SIGHUP is ignored: the run belongs to no terminal, and must outlive the one that
 * started it even if the hang-up reaches it. `snodo job cancel` goes through a file instead (core's watch).
 */
function listenForStopSignals(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = () => {
    if (controller.signal.aborted) process.exit(EXIT_CODES.cancelled);
    controller.abort(new Error('Cancelled by a signal to the background run.'));
  };
  const ignore = () => {};
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('SIGHUP', ignore);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      process.off('SIGHUP', ignore);
    },
  };
}

/**
 * `snodo job run-detached <job>` (hidden): the process `snodo run --background` starts. Runs the request
 * in the job's directory under the reserved id, with the progress and summary `snodo run` would print going
 * to `output.log`; exits with the run's exit code.
 */
export async function runDetachedAction(context: CliContext, jobId: string): Promise<number> {
  const { root } = await findMainCheckout(context.cwd);
  const request = readBackgroundRequest(jobPaths(root, jobId).directory);
  const stopSignals = listenForStopSignals();
  const progress = createProgressRenderer(context);
  try {
    const handle = runTask({
      ...taskRequestFromFlags(request.task, request.flags),
      cwd: request.cwd,
      env: context.env,
      homeDirectory: context.homeDirectory,
      coders: builtInCoders,
      strict: request.flags.strict === true,
      jobId: request.jobId,
      ...(request.actor === undefined ? {} : { actor: request.actor }),
      signal: stopSignals.signal,
    });
    for await (const event of handle.events) progress.handle(event);
    const result = await handle.result;
    progress.stop();
    return reportRunResult(context, result, false);
  } finally {
    progress.stop();
    stopSignals.dispose();
  }
}
