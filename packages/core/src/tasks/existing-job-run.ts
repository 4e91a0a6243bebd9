import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { processStartTimeMs } from '@snodo/foundation';
import { appendAuditEvent } from '../audit-trail/append-audit-event.js';
import { AuditTrail } from '../audit-trail/index.js';
import { EventChannel } from '../events/event-channel.js';
import { importTaskBranch, workspaceBranchTip } from '../isolation/index.js';
import { type JobState, jobPaths, readJobState, readJobTask } from '../jobs/index.js';
import { watchCancelRequest } from '../pipeline/cancel-request.js';
import { JobRun } from '../pipeline/job-run.js';
import { loadRunContext } from '../pipeline/run-context.js';
import type { RunEvent } from '../pipeline/run-event.js';
import type { CoderCatalog, RunTaskOptions } from '../pipeline/run-task-options.js';
import type { RunWorkspace } from '../pipeline/task-workspace.js';
import { UsageLedger } from '../pipeline/usage-ledger.js';
import type { TaskCommandOptions } from './task-scope.js';

/** Options of task actions that continue a job's pipeline (approve, merge). */
export interface ContinueJobOptions extends TaskCommandOptions {
  readonly jobId: string;
  readonly coders: CoderCatalog;
  readonly signal?: AbortSignal;
  /** Receives the job's events while the action runs (the CLI renders them). */
  readonly onEvent?: (event: RunEvent) => void;
}

/** The workspace recorded in a job's state, as landing needs it. */
export function recordedWorkspace(state: JobState): RunWorkspace | undefined {
  const isolation = state.isolation;
  if (!isolation) return undefined;
  const base = isolation.baseRef.replace(/^refs\/heads\//, '');
  const recorded = {
    worktreePath: isolation.worktreePath,
    branch: isolation.branch,
    baseBranch: base,
    baseRef: isolation.baseRef,
    baseCommit: isolation.baseCommit,
    baseSource: 'checkout',
  } as const;
  return isolation.mode === 'none'
    ? { ...recorded, isolated: false }
    : { ...recorded, layout: isolation.mode, isolated: true };
}

/**
 * Brings what the user may have committed in a kept job's workspace repository into their task branch
 * before a human action lands it, and audits it when anything moved. Nothing to do for a linked worktree
 * (it shares the branch) or a workspace that is gone. A tampered workspace or a branch that moves while
 * importing throws, before the job is touched.
 */
async function importKeptWorkspace(
  repositoryRoot: string,
  state: JobState,
  auditTrail: AuditTrail,
  actor: string,
): Promise<void> {
  const isolation = state.isolation;
  if (isolation?.mode !== 'repository') return;
  const tip = await workspaceBranchTip({ worktreePath: isolation.worktreePath, branch: isolation.branch });
  if (tip === undefined) return;
  const imported = await importTaskBranch({
    repositoryRoot,
    worktreePath: isolation.worktreePath,
    branch: isolation.branch,
    expectedCommit: tip,
  });
  if (!imported.moved) return;
  await appendAuditEvent(
    auditTrail,
    'workspace-import',
    { branch: isolation.branch, commit: imported.commit, previous_commit: imported.previousCommit ?? null },
    { job: state.jobId, actor },
  );
}

/**
 * Re-opens a finished job as a `JobRun` so a human action (approve, merge) continues it with the same
 * pipeline code: same audit trail, same state file, same events. The request's original options come
 * from `task.json`. A kept workspace repository's branch is imported first (the user may have committed
 * there); then the job is marked `running` under this process while the action works.
 */
export async function withExistingJobRun<T>(
  options: ContinueJobOptions,
  work: (run: JobRun, state: JobState) => Promise<T>,
): Promise<T> {
  const context = await loadRunContext({ ...options, coders: options.coders });
  const state = readJobState(context.repositoryRoot, options.jobId);
  const task = readJobTask(context.repositoryRoot, options.jobId);
  const recorded = task.options as Partial<RunTaskOptions>;
  const runOptions: RunTaskOptions = {
    task: task.task,
    cwd: options.cwd,
    coders: options.coders,
    coder: typeof recorded.coder === 'string' ? recorded.coder : undefined,
    model: typeof recorded.model === 'string' ? recorded.model : undefined,
    coderModel: typeof recorded.coderModel === 'string' ? recorded.coderModel : undefined,
    mock: recorded.mock === true,
    mode: state.mode,
    isolation: recorded.isolation !== false,
    base: typeof recorded.base === 'string' ? recorded.base : undefined,
    mergeStrategy: recorded.mergeStrategy,
    timeoutSeconds: typeof recorded.timeoutSeconds === 'number' ? recorded.timeoutSeconds : undefined,
    signal: options.signal,
    env: context.env,
    homeDirectory: context.homeDirectory,
    actor: context.actor,
  };
  const auditTrail = await AuditTrail.open({
    repositoryRoot: context.repositoryRoot,
    gitCommonDirectory: context.gitCommonDirectory,
    remote: context.config.audit?.remote,
    snodoHome: context.snodoHome,
    actor: context.actor,
    createdBy: 'snodo',
    secrets: context.knownSecrets,
  });
  try {
    await importKeptWorkspace(context.repositoryRoot, state, auditTrail, context.actor);
  } catch (error) {
    await auditTrail.close();
    throw error;
  }
  const channel = new EventChannel<RunEvent>();
  let cancelWatch: ReturnType<typeof watchCancelRequest> | undefined;
  const draining = (async () => {
    for await (const event of channel) options.onEvent?.(event);
  })();
  try {
    const ledger = new UsageLedger(context.config.prices, state.usage);
    const paths = jobPaths(context.repositoryRoot, options.jobId);
    if (!existsSync(paths.directory)) throw new Error(`job directory ${paths.directory} is missing`);
    // As in a run: `snodo job cancel` asks through the job's directory while an approval or merge works on it.
    cancelWatch = watchCancelRequest(paths.directory, options.signal);
    const run = new JobRun(
      context,
      { ...runOptions, signal: cancelWatch.signal },
      options.jobId,
      paths,
      auditTrail,
      channel,
      ledger,
      Date.now(),
    );
    await run.updateState((current) => ({
      ...current,
      status: 'running',
      process: {
        pid: process.pid,
        hostname: hostname(),
        startedAt: new Date().toISOString(),
        startTimeMs: processStartTimeMs(process.pid),
      },
    }));
    return await work(run, state);
  } finally {
    cancelWatch?.dispose();
    channel.close();
    await draining;
    await auditTrail.close();
  }
}
