import { buildCoderEnvironment, findExecutable } from '@snodo/coder-sdk';
import { WorkspaceSetupFailedError, WorkspaceSetupToolMissingError } from '../errors.js';
import { lastLines } from '../gates/commands/output-tail.js';
import { runGateCommand } from '../gates/commands/run-gate-command.js';
import { copyIntoWorkspace } from '../workspace-setup/copy-into-workspace.js';
import { excludeSetupOutput } from '../workspace-setup/exclude-setup-output.js';
import { resolveWorkspaceSetup } from '../workspace-setup/resolve-workspace-setup.js';
import type { JobContainment } from './job-containment.js';
import { endingFromError, type JobEnding } from './job-ending.js';
import { takeJobGuard } from './job-guard.js';
import type { JobRun } from './job-run.js';
import type { RunWorkspace } from './task-workspace.js';

const SET_IT =
  'Set `execution.setup` in .snodo/protocol.yml to the command that prepares this repository, or `none` to skip setup.';

/** What setup needs besides the job: where it runs, and the job's sandbox. */
type SetupOptions = { workspace: RunWorkspace; containment: JobContainment };

/**
 * Prepares the job's fresh workspace before the coder and the gates run (SPEC §6): copies
 * `execution.copy_into_workspace` from the main checkout, then runs `execution.setup` (`auto`: detected from
 * the lockfile) in the workspace, inside the job's sandbox exactly as a command gate runs (same supervisor,
 * process group killed on timeout, allow-listed environment without keys, `CI=true`), but with the network
 * on whatever `execution.sandbox_network` says: installs fetch packages, and setup runs the repository's
 * committed code, not the coder's. The repository guard watches it like a command gate. What setup leaves
 * untracked is excluded from the task's commits (see `excludeSetupOutput`); a changed tracked file fails it.
 *
 * Returns `undefined` when the workspace is ready (or there is nothing to do), else the ending: `failed`
 * with `WORKSPACE_SETUP_FAILED` or `WORKSPACE_SETUP_TOOL_MISSING`, environment failures (exit 3) that no
 * coder run can fix, so the fix loop never starts. The `setup` stage is reported only when something runs,
 * so a repository without a lockfile shows the stages it always had; the caller does not wrap it.
 * Under `--no-isolation` nothing happens: the workspace is the user's own checkout, prepared by the user.
 */
export async function runWorkspaceSetup(run: JobRun, options: SetupOptions): Promise<JobEnding | undefined> {
  const { workspace } = options;
  const { execution } = run.context.protocol;
  if (!workspace.isolated) return undefined;
  const patterns = execution.copy_into_workspace;
  const plan = resolveWorkspaceSetup(execution.setup, workspace.worktreePath);
  // Nothing detected and nothing to copy: silent, so a repository without a lockfile runs as it always did.
  if (patterns.length === 0 && plan.kind === 'skip') return undefined;
  const detail = plan.kind === 'run' ? `${plan.display}, from ${plan.source}` : 'copy_into_workspace';
  return run.stage('setup', () => prepare(run, options, plan), { detail });
}

async function prepare(
  run: JobRun,
  options: SetupOptions,
  plan: ReturnType<typeof resolveWorkspaceSetup>,
): Promise<JobEnding | undefined> {
  const { workspace, containment } = options;
  const started = Date.now();
  const copy = await copyIntoWorkspace({
    repositoryRoot: run.context.repositoryRoot,
    workspacePath: workspace.worktreePath,
    patterns: run.context.protocol.execution.copy_into_workspace,
  });
  if (copy.copied.length > 0) run.note('info', `Copied into the workspace: ${copy.copied.join(', ')}.`);
  for (const pattern of copy.unmatched) {
    run.note(
      'warn',
      `execution.copy_into_workspace: "${pattern}" matches no untracked file in your checkout.`,
    );
  }
  for (const skipped of copy.skipped)
    run.note('warn', `Not copied into the workspace: ${skipped.path} (${skipped.reason}).`);
  const record = async (
    data: {
      command: string | null;
      source: string;
      outcome: 'passed' | 'failed' | 'timed-out' | 'not-started' | 'changed-tracked-files' | 'skipped';
      exit_code: number | null;
      output_tail: string;
    },
    excluded: readonly string[] = [],
  ) =>
    run.audit('workspace-setup', {
      ...data,
      duration_ms: Date.now() - started,
      copied: copy.copied,
      excluded,
    });

  if (plan.kind === 'skip') {
    const output = await excludeSetupOutput(workspace.worktreePath);
    await record(
      { command: null, source: plan.reason, outcome: 'skipped', exit_code: null, output_tail: '' },
      output.excluded,
    );
    return undefined;
  }
  const base = { command: plan.display, source: plan.source };
  const fail = async (
    outcome: 'failed' | 'timed-out' | 'not-started' | 'changed-tracked-files',
    error: WorkspaceSetupFailedError | WorkspaceSetupToolMissingError,
    exitCode: number | null = null,
    tail = '',
  ) => {
    await record({ ...base, outcome, exit_code: exitCode, output_tail: tail });
    return endingFromError(error, false);
  };
  if (
    plan.tool !== undefined &&
    !plan.tool.includes('/') &&
    !findExecutable(plan.tool, run.context.env.PATH)
  ) {
    return fail('not-started', new WorkspaceSetupToolMissingError({ tool: plan.tool, ...base }));
  }
  const guard = await takeJobGuard(run);
  const sandbox = containment.gateSandbox ? { ...containment.gateSandbox, network: true } : undefined;
  const result = await runGateCommand({
    command: plan.command,
    cwd: workspace.worktreePath,
    // As for command gates: the project's own scripts get an allow-listed environment without any key.
    env: { ...buildCoderEnvironment({ parentEnv: run.context.env, credentials: {} }), CI: 'true' },
    timeoutMs: plan.timeoutSeconds * 1000,
    ...(run.signal ? { signal: run.signal } : {}),
    ...(sandbox ? { sandbox } : {}),
  });
  await guard.verify('the workspace setup');
  if (result.outcome === 'aborted') run.throwIfCancelled();
  const tail = lastLines(result.output, 15, 2000);
  const failed = (reason: string, fix: string) =>
    new WorkspaceSetupFailedError({ ...base, reason, fix, ...(tail ? { outputTail: tail } : {}) });
  if (result.outcome === 'spawn-failed' || result.outcome === 'aborted') {
    const why = result.spawnError ?? 'was stopped before it finished';
    const hidden = /inside the sandbox/.test(why)
      ? ' The sandbox hides your home directory: install the tool system-wide (`snodo doctor` shows the sandbox).'
      : '';
    return fail('not-started', failed(`could not start: ${why}`, `${SET_IT}${hidden}`));
  }
  if (result.outcome === 'timed-out') {
    const raise = `Raise its limit: \`setup: { command: ${plan.source === 'execution.setup' ? '…' : 'auto'}, timeout_seconds: ${plan.timeoutSeconds * 2} }\` under execution in .snodo/protocol.yml.`;
    return fail(
      'timed-out',
      failed(`ran longer than ${plan.timeoutSeconds}s and was stopped`, raise),
      null,
      tail,
    );
  }
  if (result.exitCode !== 0) {
    const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
    return fail('failed', failed(how, SET_IT), result.exitCode, tail);
  }
  const output = await excludeSetupOutput(workspace.worktreePath);
  if (output.changedTracked.length > 0) {
    const files = output.changedTracked.slice(0, 5).join(', ');
    const reason = `changed tracked files (${files}), which would be committed as the coder's change`;
    const fix =
      'Use a command that installs without rewriting them (`npm ci`, `--frozen-lockfile`), commit what it changes first, or set `execution.setup` in .snodo/protocol.yml.';
    return fail('changed-tracked-files', failed(reason, fix), 0, tail);
  }
  await record({ ...base, outcome: 'passed', exit_code: 0, output_tail: tail }, output.excluded);
  run.note(
    'info',
    `Workspace ready: ${plan.display} passed${output.excluded.length > 0 ? `; kept out of the change: ${output.excluded.slice(0, 3).join(', ')}${output.excluded.length > 3 ? '…' : ''}` : ''}.`,
  );
  return undefined;
}
