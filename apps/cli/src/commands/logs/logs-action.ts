import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { jobPaths, readJobState, reconcileDeadJobs } from '@snodo/core/jobs';
import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { waitForBackgroundExit } from '../../jobs/background-process-exit.js';
import { backgroundLogPath } from '../../jobs/background-request.js';
import { resolveJobId } from '../../jobs/resolve-job-id.js';

/** The flags of `snodo logs`. */
export interface LogsFlags {
  readonly follow?: boolean | undefined;
}

/** How often `--follow` looks for new output and for the job's end. */
const POLL_INTERVAL_MS = 250;

/** Copies the bytes of `path` from `offset` to stdout; returns the new offset. */
function copyFrom(context: CliContext, path: string, offset: number): number {
  if (!existsSync(path)) return offset;
  const size = statSync(path).size;
  if (size <= offset) return size < offset ? 0 : offset;
  const descriptor = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(size - offset);
    const read = readSync(descriptor, buffer, 0, buffer.length, offset);
    context.stdout.write(buffer.subarray(0, read).toString('utf8'));
    return offset + read;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * `snodo logs <job> [--follow]`: prints the transcript (for a `--background` run, its `output.log`); with
 * `--follow`, keeps polling for new output until the job's status is no longer `running`, then prints what
 * is left and stops.
 */
export async function logsAction(context: CliContext, reference: string, flags: LogsFlags): Promise<number> {
  const { repositoryRoot, jobId } = await resolveJobId(context.cwd, reference);
  const options = { cwd: context.cwd, env: context.env, homeDirectory: context.homeDirectory };
  // A job whose process died is `interrupted`, not `running`: --follow must not wait for it forever.
  await reconcileDeadJobs(options, { jobIds: [jobId] });
  // Fails with JOB_NOT_FOUND (and its hint) before anything is printed.
  let state = readJobState(repositoryRoot, jobId);
  // A background run's output (its progress, the coder's lines and the summary) tells more than the
  // transcript, which holds only the coder's output: that is the log of a job that has one.
  const paths = jobPaths(repositoryRoot, jobId);
  const backgroundLog = backgroundLogPath(paths.directory);
  const path = existsSync(backgroundLog) ? backgroundLog : paths.transcript;
  let offset = copyFrom(context, path, 0);
  while (flags.follow === true && state.status === 'running') {
    await sleep(POLL_INTERVAL_MS);
    offset = copyFrom(context, path, offset);
    await reconcileDeadJobs(options, { jobIds: [jobId] });
    state = readJobState(repositoryRoot, jobId);
  }
  // A background run prints its last lines (the end, the summary) after `state.json` says it ended.
  if (flags.follow === true) {
    await waitForBackgroundExit(repositoryRoot, state, () => {
      offset = copyFrom(context, path, offset);
    });
  }
  offset = copyFrom(context, path, offset);
  if (offset === 0) {
    const coder = state.coder?.displayName ?? 'The coder';
    context.stderr.write(
      context.err.dim(
        `(no transcript: ${coder} wrote no output for ${jobId}; see \`snodo meta ${jobId}\`)\n`,
      ),
    );
  }
  return EXIT_CODES.done;
}
