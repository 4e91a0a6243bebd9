import { currentBranch, requireRemote } from '@snodo/core';
import { gitProbe } from './clone-git.js';
import { QueueSubmissionError } from './errors.js';
import type { QueueConnection } from './queue-connection.js';
import { type SubmittedRunOptions, TASK_QUEUE, type TaskJobData } from './queue-jobs.js';
import { submissionJobId } from './submission-id.js';

/** What `snodo submit` asks for. */
export interface SubmitTaskOptions {
  readonly connection: QueueConnection;
  /** A clone of the shared remote (the submitter's checkout). */
  readonly cwd: string;
  readonly task: string;
  /** The base branch on the remote; default the branch checked out in `cwd`. */
  readonly base?: string | undefined;
  /** The remote workers share; default `origin`. */
  readonly remote?: string | undefined;
  /** A job id of the user's choosing instead of the derived one. */
  readonly id?: string | undefined;
  readonly options: SubmittedRunOptions;
  readonly actor: string;
}

/** What `snodo submit` prints. */
export interface SubmitTaskResult {
  readonly jobId: string;
  /** `false` when the queue already held this job (a retried submit): nothing was added. */
  readonly created: boolean;
  readonly base: string;
  readonly baseCommit: string;
}

/**
 * Enqueues one task: reads the base's commit from the shared remote (not the submitter's possibly stale
 * copy), the protocol at that commit, and adds a job whose id is derived from all of it.
 */
export async function submitTask(options: SubmitTaskOptions): Promise<SubmitTaskResult> {
  const task = options.task.trim();
  if (task === '') {
    throw new QueueSubmissionError({ problem: 'the task is empty', fix: 'Say what to do: snodo submit "…"' });
  }
  const remote = options.remote ?? 'origin';
  const base = options.base ?? (await checkedOutBranch(options.cwd));
  // Core's check: a configured remote's name, never a URL or something that reads as a flag.
  await requireRemote(options.cwd, remote);
  // NOTE: fetch writes only FETCH_HEAD; the submitter's branches stay as they are.
  const fetched = await gitProbe(options.cwd, [
    'fetch',
    '--no-tags',
    '--quiet',
    remote,
    `refs/heads/${base}`,
  ]);
  const baseCommit =
    fetched === undefined
      ? undefined
      : await gitProbe(options.cwd, ['rev-parse', '--verify', 'FETCH_HEAD^{commit}']);
  if (baseCommit === undefined) {
    throw new QueueSubmissionError({
      problem: `the remote ${remote} has no branch ${base}`,
      fix: 'Push it first, or name another with --base <branch>.',
    });
  }
  const protocolBlob = await gitProbe(options.cwd, [
    'rev-parse',
    '--verify',
    `${baseCommit}:.snodo/protocol.yml`,
  ]);
  if (protocolBlob === undefined) {
    throw new QueueSubmissionError({
      problem: `${base} (${baseCommit.slice(0, 12)}) on ${remote} has no .snodo/protocol.yml`,
      fix: 'Commit the protocol (`snodo init`) and push it; workers run the protocol of the base.',
    });
  }
  const jobId = submissionJobId(
    { task, base, baseCommit, protocolBlob, options: options.options },
    options.id,
  );
  const data: TaskJobData = {
    task,
    base,
    baseCommit,
    protocolCommit: baseCommit,
    protocolBlob,
    options: options.options,
    submittedBy: options.actor,
    submittedAt: new Date().toISOString(),
  };
  const queue = options.connection.createQueue<TaskJobData>(TASK_QUEUE);
  try {
    const existing = await queue.getJob(jobId);
    // Jobs are kept after they finish: the id stays taken, so a retried submit never runs the task twice.
    await queue.add('task', data, { jobId, removeOnComplete: false, removeOnFail: false });
    return { jobId, created: existing === undefined, base, baseCommit };
  } finally {
    await queue.close();
  }
}

async function checkedOutBranch(cwd: string): Promise<string> {
  const head = await currentBranch(cwd);
  if (head.detached) {
    throw new QueueSubmissionError({
      problem: 'HEAD is detached, so there is no branch to start from',
      fix: 'Name the base: snodo submit "…" --base <branch>.',
    });
  }
  return head.name;
}
