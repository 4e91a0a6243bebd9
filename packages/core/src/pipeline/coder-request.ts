import type { CoderV1Request } from '@snodo/coder-sdk';
import type { CoderProcessRecord } from './coder-process-record.js';
import type { JobContainment } from './job-containment.js';
import type { JobRun } from './job-run.js';
import type { ResolvedCoder } from './stage-resolve.js';

/**
 * The request one attempt hands the coder: the workspace, the job's private home and state directories,
 * the sandbox, the limit, and an `emit` that forwards output and usage to the run's events and records
 * the coder's process group as soon as it is reported.
 */
export function buildCoderRequest(
  run: JobRun,
  options: {
    coder: ResolvedCoder;
    containment: JobContainment;
    workspace: string;
    attempt: number;
    prompt: string;
    instructions: string;
    processRecord: CoderProcessRecord;
  },
): CoderV1Request {
  const { coder, containment, processRecord } = options;
  return {
    jobId: run.jobId,
    attempt: options.attempt,
    task: run.options.task,
    prompt: options.prompt,
    workspace: options.workspace,
    model: coder.models.coder.model,
    env: coder.env,
    timeoutMs: coder.timeout.value * 1000,
    // A budget stop aborts this attempt the way Ctrl-C does: the adapter stops the coder's process group.
    abortSignal: run.budget?.attemptSignal(run.signal) ?? run.signal ?? new AbortController().signal,
    instructions: options.instructions,
    instructionsPath: run.paths.instructions,
    transcriptPath: run.paths.transcript,
    homeDirectory: run.paths.home,
    stateDirectory: run.paths.coderState,
    ...(containment.coderSandbox ? { sandbox: containment.coderSandbox } : {}),
    coderConfig: coder.coderConfig,
    emit: (event) => {
      switch (event.type) {
        case 'coder-output':
        case 'coder-progress':
          run.emit({ ...event, jobId: run.jobId });
          return;
        case 'usage':
          run.budget?.observeCoderUsage(event.usage, coder.models.coder.model);
          run.emit({
            type: 'usage',
            jobId: run.jobId,
            role: 'coder',
            usage: event.usage,
            totalTokens: run.usage.totalTokens(),
          });
          return;
        case 'coder-process':
          processRecord.record(event.pid, event.processGroup, event.tag);
          return;
      }
    },
  };
}
