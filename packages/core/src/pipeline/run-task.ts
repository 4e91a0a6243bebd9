import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CoderPromptFinding } from '@snodo/coder-sdk';
import { AuditTrail } from '../audit-trail/index.js';
import { describeCrossing } from '../budget/index.js';
import { EventChannel } from '../events/event-channel.js';
import { classifyValidator, type DiffContext, isRecoverable, loadDiffContext } from '../gates/index.js';
import { revParse } from '../git/index.js';
import type { LandingStrategy, ResolvedBaseBranch } from '../isolation/index.js';
import { createJob } from '../jobs/index.js';
import { openProject } from '../project/open-project.js';
import { checkStartingPoint, decideTask } from '../project/plan-task.js';
import type { TaskDecisions } from '../project/task-plan.js';
import { type ProtocolMode, validatorsForMode } from '../protocol/index.js';
import { haltForBudget, watchBudget } from './budget-halt.js';
import { endingWithCancelRequest, watchCancelRequest } from './cancel-request.js';
import { finishJob } from './finish-job.js';
import type { JobContainment } from './job-containment.js';
import { endingFromDecision, endingFromError, type JobEnding } from './job-ending.js';
import { JobRun } from './job-run.js';
import { reconcileRepository } from './reconcile-repository.js';
import { requireRunContext } from './run-context.js';
import type { RunEvent } from './run-event.js';
import type { RunTaskOptions } from './run-task-options.js';
import type { RunTaskResult } from './run-task-result.js';
import { ensureRuntimeExclusions } from './runtime-exclusions.js';
import { classifyTask } from './stage-classify.js';
import { executeAttempt } from './stage-execute.js';
import { runGates } from './stage-gates.js';
import { landJob } from './stage-land.js';
import { type ResolvedCoder, resolveCoder } from './stage-resolve.js';
import { runWorkspaceSetup } from './stage-setup.js';
import { discardUnusedWorkspace, type OpenedWorkspace, openWorkspace } from './stage-workspace.js';
import type { RunWorkspace } from './task-workspace.js';
import { toMicroDollars, UsageLedger } from './usage-ledger.js';

/** A running task: its events as they happen, and its result when it ends. */
export interface RunTaskHandle {
  /** Every stage, verdict, output chunk and usage report, in order; ends after `job-end`. */
  readonly events: AsyncIterable<RunEvent>;
  /**
   * The job's result. Rejects only when no job could be created (invalid protocol or config, not a git
   * repository): then the error is typed (`PROTOCOL_INVALID`, `CONFIG_INVALID`…). Every failure after
   * that is a result with `status` `failed`, `halted` or `cancelled`.
   */
  readonly result: Promise<RunTaskResult>;
}

import { SNODO_VERSION } from '../version.js';

/**
 * Runs one task through the governed pipeline (SPEC §2): classify, resolve the coder, isolate, pre-execute
 * gates, the coder (with the fix loop), post-execute gates on the real diff, land, and report — every
 * decision audited. Cancel through `options.signal`.
 */
export function runTask(options: RunTaskOptions): RunTaskHandle {
  const channel = new EventChannel<RunEvent>();
  const result = orchestrate(options, channel).finally(() => channel.close());
  // A caller that only reads the events must not see an unhandled rejection; awaiting `result` still throws.
  result.catch(() => {});
  return { events: channel, result };
}

/** The findings a fix attempt is asked to address: every verdict that did not pass. */
export function findingsFrom(
  verdicts: readonly { gateId: string; severity: string; error: boolean; justification: string }[],
): CoderPromptFinding[] {
  return verdicts
    .filter((verdict) => verdict.severity !== 'pass' || verdict.error)
    .map((verdict) => ({
      validatorId: verdict.gateId,
      severity: verdict.error ? 'error' : verdict.severity,
      justification: verdict.justification,
    }));
}

async function orchestrate(
  requested: RunTaskOptions,
  channel: EventChannel<RunEvent>,
): Promise<RunTaskResult> {
  const context = requireRunContext(await openProject(requested));
  // Every bad input is refused here, before a job, a workspace, a branch or an audit event exists (SPEC §2):
  // the plan's own refusals (an empty task, an unknown coder or mode…; it also masks secrets in the task), a
  // model the run needs and nothing configures, a start point that does not resolve (`--base nope`, a dirty
  // tree or detached HEAD under --no-isolation, no first commit), and a coder that cannot run here.
  const plan = decideTask(context, requested);
  const startingPoint = await checkStartingPoint(context, requested);
  const options = { ...requested, task: plan.task };
  // The coder of the plan's mode; classification may pick another mode, whose coder is resolved then.
  const planned = await resolveCoder(context, options, plan.mode.mode);
  if (plan.missingModels !== undefined) throw plan.missingModels;
  if (plan.missingCredentials !== undefined) throw plan.missingCredentials;
  ensureRuntimeExclusions(context.gitCommonDirectory);
  const auditTrail = await AuditTrail.open({
    repositoryRoot: context.repositoryRoot,
    gitCommonDirectory: context.gitCommonDirectory,
    remote: context.config.audit?.remote,
    snodoHome: context.snodoHome,
    actor: context.actor,
    createdBy: `snodo@${SNODO_VERSION}`,
    // Every key snodo holds is masked in the log, whichever role ends up using it.
    secrets: context.knownSecrets,
  });
  try {
    const recovered = await reconcileRepository(context, auditTrail);
    const requestOptions = {
      coder: options.coder,
      model: options.model,
      ...(options.coderModel === undefined ? {} : { coderModel: options.coderModel }),
      mock: options.mock ?? false,
      mode: options.mode,
      isolation: options.isolation ?? true,
      base: options.base,
      mergeStrategy: options.mergeStrategy,
      timeoutSeconds: options.timeoutSeconds,
      // The audit log holds integers only: the dollar cap travels in micro-dollars.
      ...(options.maxCostUsd === undefined ? {} : { maxCostMicroUsd: toMicroDollars(options.maxCostUsd) }),
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
    };
    const job = createJob({
      repositoryRoot: context.repositoryRoot,
      task: options.task,
      cwd: options.cwd,
      requestOptions,
      jobId: options.jobId,
    });
    // `snodo job cancel` (from any process) asks through a file in the job's directory; it aborts like Ctrl-C.
    const cancelWatch = watchCancelRequest(job.paths.directory, options.signal);
    const run = new JobRun(
      context,
      { ...options, signal: cancelWatch.signal },
      job.jobId,
      job.paths,
      auditTrail,
      channel,
      new UsageLedger(context.config.prices),
      Date.now(),
    );
    run.emit({ type: 'job-start', jobId: run.jobId, task: options.task });
    await watchBudget(run, plan.budget);
    for (const landing of recovered)
      run.note(
        landing.action === 'finished' || landing.action === 'not-moved' ? 'info' : 'warn',
        landing.message,
      );
    for (const warning of [...context.configWarnings, ...context.protocolWarnings]) {
      run.note('warn', `${warning.file}:${warning.line}:${warning.column}: ${warning.message}`);
    }
    await run.audit('job-start', {
      task: options.task,
      actor: context.actor,
      protocol_id: context.protocol.protocol_id,
      protocol_sha256: createHash('sha256').update(readFileSync(context.protocolPath)).digest('hex'),
      options: requestOptions,
    });
    let workspace: RunWorkspace | undefined;
    let ending: JobEnding;
    try {
      ending = await governedRun(run, plan, planned, startingPoint, (created) => {
        workspace = created;
      });
    } catch (error) {
      ending = endingFromError(error, cancelWatch.signal.aborted);
    }
    cancelWatch.dispose();
    return await finishJob(run, await endingWithCancelRequest(run, ending), workspace);
  } finally {
    await auditTrail.close();
  }
}

async function governedRun(
  run: JobRun,
  plan: TaskDecisions,
  planned: ResolvedCoder,
  startingPoint: ResolvedBaseBranch,
  onWorkspace: (workspace: RunWorkspace | undefined) => void,
): Promise<JobEnding> {
  const { context, options } = run;
  const { protocol } = context;

  const classification = await run.stage('classify', () =>
    classifyTask(run, plan.mode, plan.classifierModel),
  );
  const mode: ProtocolMode = classification.mode;
  await run.audit('task-classify', {
    mode: mode.mode_id,
    mode_source: classification.modeSource,
    flow_type: classification.flowType,
    flow_type_source: classification.flowTypeSource,
    reason: classification.reason,
  });
  run.updateStateSoon((state) => ({ ...state, mode: mode.mode_id, flowType: classification.flowType }));

  const coder: ResolvedCoder = await run.stage('resolve', async () =>
    mode === plan.mode.mode ? planned : resolveCoder(context, options, mode),
  );
  for (const secret of coder.secrets) run.auditTrail.addSecret(secret);
  const version = coder.availability.version;
  await run.audit('coder-resolve', {
    coder: coder.adapter.id,
    source: coder.selection.source,
    kind: coder.adapter.kind,
    version,
    credentials: coder.credentialSource,
    models: {
      judging: { ...coder.models.judging },
      classifier: { ...coder.models.classifier },
      coder: { ...coder.models.coder },
    },
  });
  run.updateStateSoon((state) => ({
    ...state,
    coder: {
      id: coder.adapter.id,
      displayName: coder.adapter.displayName,
      kind: coder.adapter.kind,
      source: coder.selection.source,
      ...(version ? { version } : {}),
    },
    models: {
      judging: { ...coder.models.judging },
      classifier: { ...coder.models.classifier },
      coder: { ...coder.models.coder },
    },
  }));

  // Pre-execute judges look at the task and the base, not a checkout: the workspace (and its branch) is
  // made only once they pass, so a halt before execution leaves neither behind. Pre-execute command gates
  // do need a checkout: then it is made first, and removed again when the job ends there.
  const preNeedsCheckout = validatorsForMode(protocol, mode.mode_id, 'pre_execute').some(
    (validator) => classifyValidator(validator) === 'command',
  );
  let opened: OpenedWorkspace | undefined;
  if (preNeedsCheckout) {
    opened = await openWorkspace(run, coder, startingPoint);
    onWorkspace(opened.workspace);
    const setup = await runWorkspaceSetup(run, opened);
    if (setup !== undefined) return setup;
  }
  const judgingModel = coder.models.judging.model;
  const pre = await run.stage('pre-gates', () =>
    runGates(run, {
      phase: 'pre_execute',
      attempt: 1,
      mode,
      worktreePath: opened?.workspace.worktreePath ?? context.repositoryRoot,
      judgingModel,
      sandbox: opened?.containment.gateSandbox,
    }),
  );
  if (pre.decision.action === 'halt' || pre.decision.action === 'escalate') {
    if (opened !== undefined) {
      await discardUnusedWorkspace(run, opened.workspace);
      onWorkspace(undefined);
    }
    return endingFromDecision('pre_execute', pre.decision, pre.verdicts);
  }
  if (pre.decision.action === 'proceed_with_log') run.note('info', pre.decision.justification);
  // The classifier and the pre-execute judges may already have spent the budget: ask before a workspace.
  const spentBefore = run.budget?.crossedNow();
  if (spentBefore !== undefined) {
    if (opened !== undefined) {
      await discardUnusedWorkspace(run, opened.workspace);
      onWorkspace(undefined);
    }
    return haltForBudget(run, 'pre_execute', spentBefore);
  }

  if (opened === undefined) {
    opened = await openWorkspace(run, coder, startingPoint);
    onWorkspace(opened.workspace);
    const setup = await runWorkspaceSetup(run, opened);
    if (setup !== undefined) return setup;
  }
  return executeAndLand(run, { coder, mode, ...opened });
}

/**
 * The coder attempts with the fix loop, post-execute gates on the real diff, and landing: the part of a
 * run after the pre-execute gates, also used when a human approves a job escalated before execution (then
 * with `maxAttempts: 1`: the human approved going on once, not a new fix loop).
 */
export async function executeAndLand(
  run: JobRun,
  options: {
    coder: ResolvedCoder;
    mode: ProtocolMode;
    workspace: RunWorkspace;
    containment: JobContainment;
    /** Coder attempts at most; default `1 + execution.max_fix_attempts`. */
    maxAttempts?: number;
    /** The first attempt's number: a job continued over a raised budget goes on after its recorded ones. */
    firstAttempt?: number;
    /** The first attempt continues work a budget stop cut short (its prompt says so). */
    continuing?: boolean;
    /** Findings for the first attempt: a fix round a budget stop held back, continued after a raise. */
    findings?: readonly CoderPromptFinding[];
  },
): Promise<JobEnding> {
  const { coder, mode, workspace, containment } = options;
  const { protocol } = run.context;
  const judgingModel = coder.models.judging.model;
  const maxAttempts = options.maxAttempts ?? 1 + protocol.execution.max_fix_attempts;
  const firstAttempt = options.firstAttempt ?? 1;
  const lastAttempt = firstAttempt + maxAttempts - 1;
  let findings: CoderPromptFinding[] = [...(options.findings ?? [])];
  let lastHalt: JobEnding | undefined;
  for (let attempt = firstAttempt; attempt <= lastAttempt; attempt += 1) {
    // Judges of the round before may have spent what was left: no new coder attempt past a cap.
    const spent = run.budget?.crossedNow();
    if (spent !== undefined) return haltForBudget(run, attempt === 1 ? 'pre_execute' : 'post_execute', spent);
    const continuing = attempt === firstAttempt && options.continuing === true;
    const executed = await run.stage(
      'execute',
      () => executeAttempt(run, { coder, mode, workspace, containment, attempt, findings, continuing }),
      { attempt, detail: coder.adapter.displayName },
    );
    const stoppedAt = executed.stoppedByBudget ? run.budget?.stoppedAttempt() : undefined;
    if (stoppedAt !== undefined) return haltForBudget(run, 'execute', stoppedAt);
    // Continuing work a budget stop kept: an attempt that only finishes without a new edit still has a change.
    const keptWork = continuing && (await revParse(workspace.worktreePath, 'HEAD')) !== workspace.baseCommit;
    if (executed.status === 'no-changes' && !keptWork) {
      if (attempt === firstAttempt && !continuing) {
        return {
          status: 'done',
          outcome: 'no_changes',
          summary: `${coder.adapter.displayName} made no change; nothing to merge.`,
        };
      }
      return (
        lastHalt ?? { status: 'halted', outcome: 'blocker', summary: 'The fix attempt changed nothing.' }
      );
    }
    // On a first attempt its own change is the whole diff: the name-status it was checked with is reused.
    const diff = await loadDiffContext({
      cwd: workspace.worktreePath,
      baseCommit: workspace.baseCommit,
      ...(executed.changes === undefined ? {} : { knownChanges: executed.changes }),
    });
    const post = await run.stage(
      'post-gates',
      () =>
        runGates(run, {
          phase: 'post_execute',
          attempt,
          mode,
          worktreePath: workspace.worktreePath,
          judgingModel,
          diff,
          sandbox: containment.gateSandbox,
        }),
      { attempt },
    );
    if (post.decision.action === 'proceed' || post.decision.action === 'proceed_with_log') {
      if (post.decision.action === 'proceed_with_log') run.note('info', post.decision.justification);
      // Landing spends nothing more: a change the gates passed lands even when their calls reached a cap.
      const over = run.budget?.crossedNow();
      if (over !== undefined) {
        run.note(
          'warn',
          `The post-execute gates took the job past its budget: it ${describeCrossing(over)}.`,
        );
      }
      return land(run, workspace, undefined, diff);
    }
    lastHalt = endingFromDecision('post_execute', post.decision, post.verdicts);
    const recoverable = isRecoverable(post.verdicts, post.decision, {
      fixFailingTests: protocol.execution.fix_failing_tests,
    });
    if (!recoverable || attempt === lastAttempt) return lastHalt;
    findings = findingsFrom(post.verdicts);
    run.note(
      'info',
      `Attempt ${attempt} did not pass the gates; asking ${coder.adapter.displayName} to fix ${findings.length} finding(s).`,
    );
    await run.audit('fix-request', {
      attempt: attempt + 1,
      findings: findings.map((finding) => ({ ...finding })),
    });
  }
  return lastHalt ?? { status: 'halted', outcome: 'blocker', summary: 'The gates did not pass.' };
}

/** Lands the branch and turns the landing into the job's ending. */
export async function land(
  run: JobRun,
  workspace: RunWorkspace,
  strategy: LandingStrategy = run.options.mergeStrategy ?? run.context.protocol.execution.merge_strategy,
  /** The post-execute gates' diff of this run, which spares landing a `git diff` of the same commits. */
  diff?: DiffContext,
): Promise<JobEnding> {
  const firstLine =
    run.options.task
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? 'task';
  const landing = await run.stage('land', () =>
    landJob(run, {
      workspace,
      strategy,
      message: `snodo(${run.jobId}): ${firstLine.slice(0, 72)}`,
      ...(diff === undefined ? {} : { diff }),
    }),
  );
  switch (landing.outcome) {
    case 'merged':
      return { status: 'done', outcome: 'merged', summary: landing.message, landing };
    case 'branch_kept':
      return { status: 'done', outcome: 'branch_kept', summary: landing.message, landing };
    case 'base_moved':
      // A human looks before the change goes on top of commits snodo did not land.
      return { status: 'halted', outcome: 'escalated', summary: landing.message, landing };
    default:
      return { status: 'halted', outcome: landing.outcome, summary: landing.message, landing };
  }
}
