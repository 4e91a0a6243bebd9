import { readFileSync } from 'node:fs';
import { AuditTrail, auditLogPath } from '../../audit-trail/index.js';
import { EventChannel } from '../../events/event-channel.js';
import { createTaskWorkspace, type TaskWorkspace } from '../../isolation/index.js';
import { createJob } from '../../jobs/index.js';
import { type JobContainment, prepareJobContainment } from '../../pipeline/job-containment.js';
import { JobRun } from '../../pipeline/job-run.js';
import { loadRunContext } from '../../pipeline/run-context.js';
import type { RunEvent } from '../../pipeline/run-event.js';
import type { RunTaskOptions } from '../../pipeline/run-task-options.js';
import { ensureRuntimeExclusions } from '../../pipeline/runtime-exclusions.js';
import { UsageLedger } from '../../pipeline/usage-ledger.js';
import { mockRegistration, type PipelineFixture } from '../../testing/pipeline-fixture.js';

// Test support only: a real job (context, audit trail, state, workspace repository, sandbox) stopped right
// where run-task calls the setup stage, so its tests run the real stage on a real workspace.

/** A job up to its setup stage, and what a test reads back. */
export interface SetupJob {
  readonly run: JobRun;
  readonly workspace: TaskWorkspace;
  readonly containment: JobContainment;
  /** The events reported so far. */
  events(): RunEvent[];
  /** The audit events of the repository's log so far, as `{ type, data }`. */
  auditEvents(): { type: string; data: Record<string, unknown> }[];
}

/** Opens the fixture's repository as a run does and makes the job's workspace and sandbox. */
export async function startSetupJob(fixture: PipelineFixture): Promise<SetupJob> {
  const options = {
    cwd: fixture.root,
    env: fixture.env,
    homeDirectory: fixture.env.HOME,
    actor: 'tester',
    task: 'prepare the workspace',
    coders: { registrations: [mockRegistration], defaultCoderId: 'mock', mockCoderId: 'mock' },
  } as RunTaskOptions;
  const context = await loadRunContext(options);
  ensureRuntimeExclusions(context.gitCommonDirectory);
  const auditTrail = await AuditTrail.open({
    repositoryRoot: context.repositoryRoot,
    gitCommonDirectory: context.gitCommonDirectory,
    snodoHome: context.snodoHome,
    actor: context.actor,
    createdBy: 'snodo@test',
    secrets: context.knownSecrets,
  });
  const job = createJob({
    repositoryRoot: context.repositoryRoot,
    task: options.task,
    cwd: fixture.root,
    requestOptions: {},
  });
  const channel = new EventChannel<RunEvent>();
  const seen: RunEvent[] = [];
  void (async () => {
    for await (const event of channel) seen.push(event);
  })();
  const run = new JobRun(
    context,
    options,
    job.jobId,
    job.paths,
    auditTrail,
    channel,
    new UsageLedger(),
    Date.now(),
  );
  const workspace = await createTaskWorkspace({
    repositoryRoot: context.repositoryRoot,
    jobId: job.jobId,
    task: options.task,
    worktreesDirectory: context.worktreesDirectory,
  });
  const containment = prepareJobContainment({ context, paths: job.paths, workspace, coder: undefined });
  return {
    run,
    workspace,
    containment,
    events: () => [...seen],
    auditEvents: () =>
      readFileSync(auditLogPath(fixture.root), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> }),
  };
}
