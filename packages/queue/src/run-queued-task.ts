import { jobResultRef, type RunTaskResult, runTask } from '@snodo/core';
import { type Job, UnrecoverableError } from 'bullmq';
import { gitIn, gitProbe } from './clone-git.js';
import { enqueueLanding } from './enqueue-landing.js';
import { pruneLandedBranches } from './prune-landed-branches.js';
import type { TaskJobData, TaskJobResult } from './queue-jobs.js';
import type { WorkerContext } from './worker-context.js';

/**
 * One task job on a worker: check out the submitted base, run the whole pipeline in a workspace of the
 * worker's clone with a landing strategy that keeps the task branch, push that branch to
 * `refs/snodo/jobs/<jobId>` on the remote, and enqueue its landing. The return value is the job's shared
 * state (an escalated job waits there for `snodo task approve` from any machine).
 */
export async function runQueuedTask(
  context: WorkerContext,
  job: Job<TaskJobData, TaskJobResult>,
  signal: AbortSignal | undefined,
): Promise<TaskJobResult> {
  const jobId = requireId(job);
  const { data } = job;
  const log = (message: string) => context.log(jobId, message);
  if (data.cancelRequested !== undefined) {
    log(`cancelled by ${data.cancelRequested.by} before it started`);
    return ended(
      context,
      'cancelled',
      'cancelled',
      `Cancelled by ${data.cancelRequested.by} before it started.`,
      '',
      data,
    );
  }
  log(`took "${data.task.slice(0, 60)}" (base ${data.base} at ${data.baseCommit.slice(0, 12)})`);
  const startBranch = `snodo-queue/${jobId}`;
  await context.cloneLock.run(() => checkOutBase(context, data, startBranch));
  let result: RunTaskResult;
  try {
    const handle = runTask({
      task: data.task,
      cwd: context.clone,
      env: context.env,
      ...(context.homeDirectory === undefined ? {} : { homeDirectory: context.homeDirectory }),
      coders: context.coders,
      coder: data.options.coder,
      model: data.options.model,
      coderModel: data.options.coderModel,
      mock: data.options.mock === true,
      mode: data.options.mode,
      isolation: true,
      base: startBranch,
      // The worker never lands locally: the landing queue lands on the shared remote.
      mergeStrategy: 'none',
      timeoutSeconds: data.options.timeoutSeconds,
      maxCostUsd: data.options.maxCostUsd,
      maxTokens: data.options.maxTokens,
      actor: `worker:${context.workerId}`,
      ...(signal === undefined ? {} : { signal }),
    });
    for await (const event of handle.events) {
      if (event.type === 'stage-start')
        log(`stage ${event.stage}${event.detail ? ` (${event.detail})` : ''}`);
    }
    result = await handle.result;
  } finally {
    await context.cloneLock.run(() =>
      gitProbe(context.clone, ['update-ref', '-d', `refs/heads/${startBranch}`]),
    );
  }
  return finishQueuedTask(context, job, jobId, result);
}

async function finishQueuedTask(
  context: WorkerContext,
  job: Job<TaskJobData, TaskJobResult>,
  jobId: string,
  result: RunTaskResult,
): Promise<TaskJobResult> {
  const { data } = job;
  const log = (message: string) => context.log(jobId, message);
  const keptBranch = result.outcome === 'branch_kept' || result.outcome === 'escalated';
  const taskCommit =
    keptBranch && result.branch !== undefined
      ? await gitProbe(context.clone, ['rev-parse', '--verify', `refs/heads/${result.branch}^{commit}`])
      : undefined;
  if (taskCommit !== undefined) {
    await context.cloneLock.run(() =>
      gitIn(context.clone, ['push', '--quiet', context.remote, `+${taskCommit}:${jobResultRef(jobId)}`]),
    );
    log(`pushed ${jobResultRef(jobId)} (${taskCommit.slice(0, 12)})`);
  }
  const taskBase = result.baseCommit ?? data.baseCommit;
  if (result.outcome === 'branch_kept' && taskCommit !== undefined) {
    await enqueueLanding(context.landings, {
      jobId,
      base: data.base,
      taskCommit,
      taskBase,
      task: data.task,
      ...(result.mode === undefined ? {} : { mode: result.mode }),
    });
    log('landing queued');
    return { ...ended(context, 'landing', result.outcome, result.summary, result.jobId, data), taskCommit };
  }
  if (result.outcome === 'escalated') {
    log(`escalated: ${result.summary} — waiting for snodo task approve|reject ${jobId}`);
    return {
      ...ended(context, 'escalated', result.outcome, result.summary, result.jobId, data),
      ...(taskCommit === undefined ? {} : { taskCommit }),
      // An approval from another machine enqueues the landing from this result: it needs the mode.
      ...(result.mode === undefined ? {} : { mode: result.mode }),
      ...(result.budget?.exceeded === undefined ? {} : { stoppedAtBudget: true as const }),
    };
  }
  log(`${result.status} (${result.outcome}): ${result.summary}`);
  return {
    ...ended(context, result.status, result.outcome, result.summary, result.jobId, data),
    ...(result.error === undefined ? {} : { error: { code: result.error.code } }),
  };
}

function ended(
  context: WorkerContext,
  status: TaskJobResult['status'],
  outcome: string,
  summary: string,
  localJobId: string,
  data: TaskJobData,
): TaskJobResult {
  return { status, outcome, summary, workerId: context.workerId, localJobId, taskBase: data.baseCommit };
}

/** Fetches the base from the shared remote and points a local start branch at the submitted commit. */
async function checkOutBase(context: WorkerContext, data: TaskJobData, startBranch: string): Promise<void> {
  await gitIn(context.clone, [
    'fetch',
    '--no-tags',
    '--quiet',
    context.remote,
    `+refs/heads/${data.base}:refs/remotes/${context.remote}/${data.base}`,
  ]);
  // Branches of this worker's earlier runs that have landed since (here or by another worker's lander).
  await pruneLandedBranches(context.clone, `refs/remotes/${context.remote}/${data.base}`).catch(
    (error: unknown) =>
      context.log(
        undefined,
        `could not prune landed task branches: ${error instanceof Error ? error.message : String(error)}`,
      ),
  );
  // In the base's history, not merely in this clone: after a force-push an earlier fetch still holds the commit.
  const onBase = await gitProbe(context.clone, [
    'merge-base',
    '--is-ancestor',
    data.baseCommit,
    `refs/remotes/${context.remote}/${data.base}`,
  ]);
  if (onBase === undefined) {
    throw new UnrecoverableError(
      `The submitted base ${data.baseCommit} is not on ${context.remote}/${data.base} any more (a force-push?); submit the task again.`,
    );
  }
  const protocol = await gitProbe(context.clone, ['hash-object', '.snodo/protocol.yml']);
  if (protocol !== data.protocolBlob) {
    throw new UnrecoverableError(
      `This worker's .snodo/protocol.yml (${protocol ?? 'missing'}) is not the one the task was submitted with ` +
        `(${data.protocolBlob} at ${data.protocolCommit.slice(0, 12)}): update the worker's clone (git pull) and restart it.`,
    );
  }
  await gitIn(context.clone, ['update-ref', `refs/heads/${startBranch}`, data.baseCommit]);
}

function requireId(job: Job): string {
  if (job.id === undefined) throw new UnrecoverableError('A queue job without an id cannot be run.');
  return job.id;
}
