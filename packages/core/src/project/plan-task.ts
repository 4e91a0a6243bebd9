import { resolveJobBudget } from '../budget/index.js';
import { checkCoder } from '../coders/check-coder.js';
import { resolveBaseBranch, useCurrentCheckout } from '../isolation/index.js';
import { redactKnownSecrets } from '../pipeline/known-secrets.js';
import { type RunContext, requireRunContext } from '../pipeline/run-context.js';
import { constraintsForMode, validatorsForMode } from '../protocol/index.js';
import { SandboxUnavailableError } from '../sandbox/sandbox-unavailable-error.js';
import { chooseMode } from './choose-mode.js';
import { resolveCoderTimeout } from './coder-timeout.js';
import { findMissingCredentials } from './find-missing-credentials.js';
import { findMissingModels } from './find-missing-models.js';
import type { Project } from './project.js';
import { resolveSelection } from './resolve-selection.js';
import { TaskEmptyError } from './task-empty-error.js';
import type { TaskDecisions, TaskPlan, TaskRequest } from './task-plan.js';
import { taskReadiness } from './task-readiness.js';
import { MAX_TASK_BYTES, TaskTooLargeError } from './task-too-large-error.js';

/** Refuses, before a job exists, a run `execution.sandbox: required` forbids (SPEC §12; exit 3). */
function assertSandboxAllowed(context: RunContext, request: TaskRequest): void {
  const { setting, availability } = context.sandbox;
  if (setting.mode !== 'required') return;
  if (request.isolation === false) {
    throw new SandboxUnavailableError({
      reason: '--no-isolation runs in your own checkout, which cannot be contained',
      fix: 'Run without --no-isolation.',
      source: setting.modeSource,
    });
  }
  if (availability.kind === 'none') {
    throw new SandboxUnavailableError({
      reason: availability.reason,
      fix: availability.fix,
      source: setting.modeSource,
    });
  }
}

/**
 * Takes every decision a run makes before a job exists, reading only, and refuses bad input with its typed
 * error: an empty task, an unknown `--coder` or a model namespaced for another coder, an unknown `--mode`
 * or one that cannot change code, a sandbox that `required` asks for and this machine lacks. A model the
 * run needs and nothing configures is returned (`missingModels`), not thrown, so a plan can show it as not
 * ready; `runTask` throws it. `planTask` adds the coder's readiness and the base commit.
 */
export function decideTask(context: RunContext, request: TaskRequest): TaskDecisions {
  const { protocol } = context;
  // Measured before anything reads the text, so an enormous one is refused at the cost of counting it.
  const taskBytes = Buffer.byteLength(request.task, 'utf8');
  if (taskBytes > MAX_TASK_BYTES) throw new TaskTooLargeError({ bytes: taskBytes });
  if (request.task.trim() === '') throw new TaskEmptyError({});
  // The classifier's model is chosen before a mode exists: it is what routes the task to one.
  const classifierModel = resolveSelection(context, {
    coder: request.coder,
    model: request.model,
    coderModel: request.coderModel,
    mock: request.mock,
  }).models.classifier.model;
  const mode = chooseMode(protocol, request.mode);
  const selection = resolveSelection(context, {
    coder: request.coder,
    model: request.model,
    coderModel: request.coderModel,
    mock: request.mock,
    mode: mode.mode,
  });
  assertSandboxAllowed(context, request);
  const modeId = mode.mode.mode_id;
  return {
    // A provider key pasted into the task never reaches the audit log, a commit subject or a branch name.
    task: redactKnownSecrets(request.task, context.knownSecrets),
    repositoryRoot: context.repositoryRoot,
    protocol: { path: context.protocolPath, id: protocol.protocol_id, warnings: context.protocolWarnings },
    mode,
    selection,
    classifierModel,
    gates: {
      preExecute: validatorsForMode(protocol, modeId, 'pre_execute'),
      postExecute: validatorsForMode(protocol, modeId, 'post_execute'),
      constraints: constraintsForMode(protocol, modeId),
    },
    policy: protocol.disagreement_policy,
    merge:
      request.mergeStrategy !== undefined
        ? { value: request.mergeStrategy, source: 'flag' }
        : {
            value: protocol.execution.merge_strategy,
            source: context.protocolDeclaresMergeStrategy ? 'protocol' : 'default',
          },
    isolation:
      request.isolation === false
        ? { mode: 'none', directory: context.repositoryRoot }
        : { mode: 'repository', directory: context.worktreesDirectory },
    sandbox: context.sandbox,
    coderTimeout: resolveCoderTimeout({
      flag: request.timeoutSeconds,
      coderId: selection.coder.coderId,
      mode: mode.mode,
      config: context.config,
      protocol,
    }),
    maxFixAttempts: protocol.execution.max_fix_attempts,
    budget: resolveJobBudget(request, protocol),
    missingModels: findMissingModels({ protocol, choice: mode, selection, classifierModel }),
    missingCredentials: findMissingCredentials({
      protocol,
      choice: mode,
      selection,
      classifierModel,
      config: context.config,
      env: context.env,
    }),
  };
}

/**
 * Refuses, reading only, a start point the run would refuse after creating its job: with `--no-isolation`
 * a dirty tree, a detached HEAD or an unborn branch; otherwise a base branch that does not resolve (a
 * typo in `--base`, a detached HEAD without one, a repository without a first commit).
 */
export async function checkStartingPoint(context: RunContext, request: TaskRequest) {
  if (request.isolation === false) await useCurrentCheckout({ repositoryRoot: context.repositoryRoot });
  return resolveBaseBranch({
    repositoryRoot: context.repositoryRoot,
    base: request.isolation === false ? undefined : request.base,
    configuredBase: request.isolation === false ? undefined : context.protocol.execution.base_branch,
  });
}

/**
 * What a run of `request` would do in `project`, without creating a job, a workspace, a branch or an audit
 * event (SPEC §2; `snodo run --dry-run` prints it): mode, coder and whether it is ready, models per role,
 * gates per phase, constraints, policy, merge strategy, base branch and commit, isolation, sandbox, the
 * coder's timeout and fix attempts, each with its source. Refuses what the run would refuse, with the same
 * typed errors (`decideTask`, `checkStartingPoint`). A missing model or a coder that cannot run is not
 * thrown: `readiness` says "not ready" with the text the run would be refused with.
 */
export async function planTask(project: Project, request: TaskRequest): Promise<TaskPlan> {
  const context = requireRunContext(project);
  const decisions = decideTask(context, request);
  const base = await checkStartingPoint(context, request);
  const coderStatus = await checkCoder(project, decisions.selection.coder.coderId);
  return {
    ...decisions,
    coderStatus,
    base,
    readiness: taskReadiness(decisions.missingModels, coderStatus, decisions.missingCredentials),
  };
}
