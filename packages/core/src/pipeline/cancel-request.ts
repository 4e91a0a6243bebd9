import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { JobEnding } from './job-ending.js';
import type { JobRun } from './job-run.js';

/** Who asked a running job to stop, and when (`cancel-request.json` in the job's directory). */
export interface CancelRequest {
  readonly by: string;
  readonly at: string;
  readonly reason?: string | undefined;
}

/** How often a running job looks for a cancel request: fast enough for a person, a stat call each time. */
const POLL_INTERVAL_MS = 200;

function cancelRequestPath(jobDirectory: string): string {
  return join(jobDirectory, 'cancel-request.json');
}

/** Leaves a cancel request for the process running the job, wherever it runs on this filesystem. */
export function writeCancelRequest(jobDirectory: string, request: CancelRequest): void {
  writeFileAtomic(cancelRequestPath(jobDirectory), `${JSON.stringify(request, null, 2)}\n`);
}

/** The job's cancel request, if one was made (and is readable). */
function readCancelRequest(jobDirectory: string): CancelRequest | undefined {
  const path = cancelRequestPath(jobDirectory);
  if (!existsSync(path)) return undefined;
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<CancelRequest>;
    if (typeof value.by !== 'string' || typeof value.at !== 'string') return undefined;
    return {
      by: value.by,
      at: value.at,
      ...(typeof value.reason === 'string' ? { reason: value.reason } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * The signal a running job is cancelled through: aborted by `parent` (Ctrl-C in the CLI) or by a cancel
 * request appearing in the job's directory. A file and not a process signal because the job may run inside
 * a process that must not be signalled (an MCP server, a queue worker running several jobs); polled
 * because `fs.watch` misses events on some filesystems. The timer never keeps Node alive.
 */
export function watchCancelRequest(
  jobDirectory: string,
  parent: AbortSignal | undefined,
): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const check = () => {
    const request = readCancelRequest(jobDirectory);
    if (request === undefined || controller.signal.aborted) return;
    const why = request.reason === undefined ? '' : `: ${request.reason}`;
    controller.abort(new Error(`Cancelled by ${request.by} at ${request.at} (snodo job cancel)${why}.`));
  };
  const timer = setInterval(check, POLL_INTERVAL_MS);
  timer.unref();
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted === true) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  check();
  return {
    signal: controller.signal,
    dispose() {
      clearInterval(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}

/**
 * A cancelled job's ending with who cancelled it and when, recorded as a decision in `state.json`, when the
 * cancellation came from a request (`snodo job cancel`) rather than Ctrl-C. Other endings pass unchanged:
 * a job that finished before it looked at the request ended as it ended. The request is used up either
 * way, so a late one cannot stop what a human does with the job next (an approval runs it again).
 */
export async function endingWithCancelRequest(run: JobRun, ending: JobEnding): Promise<JobEnding> {
  const request = readCancelRequest(run.paths.directory);
  rmSync(cancelRequestPath(run.paths.directory), { force: true });
  if (ending.status !== 'cancelled' || request === undefined) return ending;
  await run.updateState((state) => ({
    ...state,
    decisions: [
      ...state.decisions,
      {
        action: 'cancel',
        by: request.by,
        at: request.at,
        ...(request.reason === undefined ? {} : { reason: request.reason }),
      },
    ],
  }));
  const why = request.reason === undefined ? '' : ` (${request.reason})`;
  return { ...ending, summary: `Cancelled by ${request.by} at ${request.at}${why}; the job is kept.` };
}
