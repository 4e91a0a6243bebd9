import {
  createTaskWorkspace,
  type ResolvedBaseBranch,
  removeTaskWorkspace,
  useCurrentCheckout,
} from '../isolation/index.js';
import { landingLedgerOffset } from '../landing/index.js';
import { type JobContainment, prepareJobContainment } from './job-containment.js';
import type { JobRun } from './job-run.js';
import type { ResolvedCoder } from './stage-resolve.js';
import type { RunWorkspace } from './task-workspace.js';

/** A job's workspace and the containment its coder and command gates run in. */
export interface OpenedWorkspace {
  readonly workspace: RunWorkspace;
  readonly containment: JobContainment;
}

/**
 * Makes the job's workspace (the `isolate` stage): a workspace repository on a new `snodo/` branch, or the
 * user's checkout under `--no-isolation`; prepares its containment, audits `workspace-create` and records
 * it in `state.json`. Called only once the job needs a checkout: after the pre-execute gates pass, or before
 * them when they include command gates, and by `snodo task approve` for a job escalated before execution.
 * `chosenBase`: the base the run resolved at its start; its branch is kept and only its commit read again.
 */
export async function openWorkspace(
  run: JobRun,
  coder: ResolvedCoder,
  chosenBase?: ResolvedBaseBranch,
): Promise<OpenedWorkspace> {
  const { context, options } = run;
  // Read before the base is: base moves recorded after this are other jobs' landings, not foreign commits.
  const ledgerOffset = landingLedgerOffset(context.repositoryRoot);
  const workspace = await run.stage<RunWorkspace>('isolate', () =>
    options.isolation === false
      ? useCurrentCheckout({ repositoryRoot: context.repositoryRoot })
      : createTaskWorkspace({
          repositoryRoot: context.repositoryRoot,
          jobId: run.jobId,
          task: options.task,
          base: options.base,
          configuredBase: context.protocol.execution.base_branch,
          chosenBase,
          worktreesDirectory: context.worktreesDirectory,
        }),
  );
  const containment = prepareJobContainment({
    context,
    paths: run.paths,
    workspace,
    coder: coder.adapter,
    coderExecutable: coder.availability.binaryPath,
    coderConfig: coder.coderConfig,
  });
  await run.audit('workspace-create', {
    isolated: workspace.isolated,
    worktree: workspace.worktreePath,
    branch: workspace.branch,
    base_ref: workspace.baseRef,
    base_commit: workspace.baseCommit,
    base_source: workspace.baseSource,
    sandbox: containment.record.kind,
    sandbox_reason: containment.record.reason,
    sandbox_gate_network: containment.record.gateNetwork,
  });
  if (containment.record.kind === 'none' && context.sandbox.setting.mode === 'auto') {
    run.note(
      'warn',
      `No sandbox: ${containment.record.reason}. The coder and command gates run with your own powers; ` +
        `snodo only detects tampering afterwards. ${context.sandbox.availability.kind === 'none' ? context.sandbox.availability.fix : ''}`.trim(),
    );
  }
  await run.updateState((state) => ({
    ...state,
    sandbox: { ...containment.record },
    isolation: {
      mode: workspace.isolated ? 'repository' : 'none',
      worktreePath: workspace.worktreePath,
      branch: workspace.branch,
      baseRef: workspace.baseRef,
      baseCommit: workspace.baseCommit,
      landingLedgerOffset: ledgerOffset,
    },
  }));
  return { workspace, containment };
}

/**
 * Removes a workspace nothing was done in (its pre-execute command gates halted the job before the coder
 * ran): the workspace repository and its branch go, and `state.json` no longer names them, so a human who
 * approves the job gets a fresh one. The user's own checkout (`--no-isolation`) is never touched.
 */
export async function discardUnusedWorkspace(run: JobRun, workspace: RunWorkspace): Promise<void> {
  if (!workspace.isolated) return;
  await removeTaskWorkspace({
    repositoryRoot: run.context.repositoryRoot,
    worktreesDirectory: run.context.worktreesDirectory,
    worktreePath: workspace.worktreePath,
    branch: workspace.branch,
    baseRef: workspace.baseRef,
    // Only the pre-execute command gates ran in it: whatever they left is theirs, and the branch holds
    // nothing but the base.
    force: true,
  });
  await run.updateState((state) => {
    const { isolation: _removed, ...rest } = state;
    return rest;
  });
}
