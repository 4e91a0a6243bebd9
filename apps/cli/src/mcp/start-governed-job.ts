import { type RunTaskResult, runTask } from '@snodo/core';
import type { CliContext } from '../cli-context.js';
import { builtInCoders } from '../coders/built-in-coders.js';

/** What a host agent may ask for through `snodo_run_task`: the task and the choices a run flag makes. */
export interface GovernedJobRequest {
  readonly task: string;
  /** The protocol mode the server serves: the run is held to it. */
  readonly mode: string;
  readonly coder?: string | undefined;
  readonly model?: string | undefined;
  readonly mock?: boolean | undefined;
  readonly base?: string | undefined;
}

/** A job that exists and is running. */
export interface StartedJob {
  readonly jobId: string;
  /** The process running the job. */
  readonly pid: number;
}

/** Starts governed jobs for the server and ends those it still runs when the server stops. */
export interface JobStarter {
  /** Resolves once the job exists; rejects with core's typed error when the run is refused before that. */
  start(request: GovernedJobRequest): Promise<StartedJob>;
  /** Cancels the jobs this starter still runs and waits (bounded) for them to end `cancelled`. */
  close(): Promise<void>;
}

/**
 * The one switch for how `snodo_run_task` starts a job. Today: `runTask` in the server's own process,
 * without awaiting it, so the call returns as soon as the job exists. Background runs (`snodo run
 * --background`, `startBackgroundRun`) will replace this behind the same interface, so a job then outlives
 * the server.
 */
export function createJobStarter(context: CliContext): JobStarter {
  return createInProcessJobStarter(context);
}

/** The in-process starter: each job is a `runTask` of this process, cancelled when the server stops. */
export function createInProcessJobStarter(context: CliContext): JobStarter {
  const running = new Map<string, { controller: AbortController; result: Promise<RunTaskResult> }>();
  return {
    async start(request) {
      const controller = new AbortController();
      const handle = runTask({
        task: request.task,
        cwd: context.cwd,
        env: context.env,
        homeDirectory: context.homeDirectory,
        coders: builtInCoders,
        coder: request.coder,
        model: request.model,
        mock: request.mock === true,
        mode: request.mode,
        base: request.base,
        // A host agent never works in the user's checkout: every job gets its own workspace.
        isolation: true,
        signal: controller.signal,
      });
      const events = handle.events[Symbol.asyncIterator]();
      // The first event of a run that created a job is `job-start`; a run refused before that rejects.
      const first = await Promise.race([events.next(), handle.result.then(() => undefined)]);
      if (first === undefined || first.done === true || first.value.type !== 'job-start') {
        const result = await handle.result;
        return { jobId: result.jobId, pid: process.pid };
      }
      const jobId = first.value.jobId;
      running.set(jobId, { controller, result: handle.result });
      void (async () => {
        // Drained so the channel never holds the run back; the job's files and audit log carry the story.
        for (let next = await events.next(); next.done !== true; next = await events.next()) {}
      })().catch(() => {});
      void handle.result.finally(() => running.delete(jobId)).catch(() => {});
      return { jobId, pid: process.pid };
    },
    async close() {
      const ending = [...running.values()].map(({ controller, result }) => {
        controller.abort();
        return result.catch(() => undefined);
      });
      await Promise.race([
        Promise.all(ending),
        new Promise((resolve) => setTimeout(resolve, 15_000).unref()),
      ]);
    },
  };
}
