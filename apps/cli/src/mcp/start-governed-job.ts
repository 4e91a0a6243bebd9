import type { CliContext } from '../cli-context.js';
import { startBackgroundRun } from '../jobs/start-background-run.js';
import { type RunTaskInput, runFlagsFromInput } from './run-task-input.js';

/** What a host agent asked for through `snodo_run_task`, with the served mode and who asks. */
export interface GovernedJobRequest extends RunTaskInput {
  /** The protocol mode the server serves: the run is held to it. */
  readonly mode: string;
  /** Who asks, for the job's `job-start` event: `mcp:<client name>`. */
  readonly actor: string;
}

/** A job that exists and is running. */
export interface StartedJob {
  readonly jobId: string;
  /** The process running the job. */
  readonly pid: number;
}

/** Starts governed jobs for the server. */
export interface JobStarter {
  /** Resolves once the job exists; rejects with the run's typed error when it is refused before that. */
  start(request: GovernedJobRequest): Promise<StartedJob>;
}

/**
 * How `snodo_run_task` starts a job: `startBackgroundRun`, the same detached run as `snodo run
 * --background`. Its refusals (empty task, unknown coder, a model nothing configures, a coder that cannot
 * run) are thrown here, before a job exists, with the run's own errors; the job then runs in a process of
 * its own, so it outlives the server and a client that went away (`snodo job cancel <id>` stops one).
 */
export function createJobStarter(context: CliContext): JobStarter {
  return {
    async start(request) {
      const started = await startBackgroundRun({
        task: request.task,
        cwd: context.cwd,
        env: context.env,
        homeDirectory: context.homeDirectory,
        actor: request.actor,
        flags: runFlagsFromInput(request, request.mode),
      });
      return { jobId: started.jobId, pid: started.pid };
    },
  };
}
