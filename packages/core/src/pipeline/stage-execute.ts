import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import {
  buildCoderPrompt,
  buildInstructions,
  type CoderPromptFinding,
  type CoderV1Request,
  type CoderV1Result,
  SnodoMutationError,
  WorktreeNotCleanError,
} from '@snodo/coder-sdk';
import { processStartTimeMs } from '@snodo/foundation';
import { CoderContractViolationError } from '../errors.js';
import {
  commitWithMessage,
  diffNameStatus,
  diffPatch,
  git,
  revParse,
  workingTreeStatus,
} from '../git/index.js';
import { assertWorkspaceIntact, importTaskBranch, readWorkspaceMarker } from '../isolation/index.js';
import type { AttemptRecord } from '../jobs/index.js';
import { constraintsForMode, type ProtocolMode } from '../protocol/index.js';
import { applyFileProposals } from '../workspace/index.js';
import type { JobContainment } from './job-containment.js';
import { takeJobGuard } from './job-guard.js';
import { JobRun } from './job-run.js';
import type { ResolvedCoder } from './stage-resolve.js';
import { taskCommitMessage } from './task-commit-message.js';
import type { RunWorkspace } from './task-workspace.js';

/** What one coder attempt left on the task branch. */
export interface AttemptOutcome {
  readonly status: 'changed' | 'no-changes';
  readonly commit?: string;
  readonly changedFiles: readonly string[];
  readonly result: CoderV1Result;
}

function isSnodoPath(path: string): boolean {
  return path === '.snodo' || path.toLowerCase().startsWith('.snodo/');
}

async function commitProposals(
  run: JobRun,
  coder: ResolvedCoder,
  workspace: string,
  result: CoderV1Result,
): Promise<string | undefined> {
  applyFileProposals(workspace, result.proposals ?? []);
  const status = await workingTreeStatus(workspace);
  if (status.length === 0) return undefined;
  return commitWithMessage({
    cwd: workspace,
    stageAll: true,
    message: taskCommitMessage({
      jobId: run.jobId,
      task: run.options.task,
      coderId: coder.adapter.id,
      coderVersion: result.cliVersion ?? coder.availability.version,
    }),
  });
}

/**
 * Re-checks what the attempt left, whatever kind of coder ran: at most one new commit, which is the branch
 * tip; nothing under `.snodo/`; a clean worktree. An adapter not built on the SDK is held to the contract
 * here too.
 */
async function checkAttempt(
  coder: ResolvedCoder,
  workspace: string,
  headBefore: string,
): Promise<{ commit?: string; changedFiles: string[] }> {
  const head = await revParse(workspace, 'HEAD');
  const count = Number(
    (
      await git(['rev-list', '--count', `${headBefore}..${head}`], { cwd: workspace, readOnly: true })
    ).stdout.trim(),
  );
  const violation = (problem: string) =>
    new CoderContractViolationError({
      coderId: coder.adapter.id,
      displayName: coder.adapter.displayName,
      problem,
    });
  if (count > 1) throw violation(`the attempt added ${count} commits to the task branch instead of one`);
  const changes = count === 0 ? [] : await diffNameStatus({ cwd: workspace, from: headBefore, to: head });
  const touched = changes.flatMap((change) => [
    change.path,
    ...(change.previousPath ? [change.previousPath] : []),
  ]);
  const snodoPaths = touched.filter(isSnodoPath);
  if (snodoPaths.length > 0) {
    throw new SnodoMutationError({
      coderId: coder.adapter.id,
      displayName: coder.adapter.displayName,
      paths: snodoPaths,
    });
  }
  const leftover = await workingTreeStatus(workspace);
  if (leftover.length > 0) {
    throw new WorktreeNotCleanError({
      workspace,
      statusLines: leftover.map((entry) => `${entry.index}${entry.workTree} ${entry.path}`),
    });
  }
  return count === 0
    ? { changedFiles: [] }
    : { commit: head, changedFiles: changes.map((change) => change.path).sort() };
}

/** Records the coder's process group in `state.json` while it runs (see `JobState.coderProcess`). */
function recordCoderProcess(
  run: JobRun,
  pid: number,
  processGroup: number,
  tag: string | undefined,
): Promise<unknown> {
  return run
    .updateState((state) => ({
      ...state,
      coderProcess: { pid, processGroup, startTimeMs: processStartTimeMs(pid), ...(tag ? { tag } : {}) },
    }))
    .catch(() => undefined);
}

/** Clears the record once the attempt is over (after its pending write); nothing to do if none was made. */
async function forgetCoderProcess(run: JobRun, recording: Promise<unknown> | undefined): Promise<void> {
  if (recording === undefined) return;
  await recording;
  await run.updateState((state) => {
    const { coderProcess: _ended, ...rest } = state;
    return rest;
  });
}

/**
 * One coder attempt (SPEC §2 step 7): builds the prompt and instructions, runs the coder in the worktree,
 * writes and commits an engine-managed coder's proposals (paths confined to the worktree), re-checks the
 * result, and records it: `coder-start` and `coder-end` in the audit log, the attempt in `state.json`,
 * the coder's usage.
 */
export async function executeAttempt(
  run: JobRun,
  options: {
    coder: ResolvedCoder;
    mode: ProtocolMode;
    workspace: RunWorkspace;
    containment: JobContainment;
    attempt: number;
    findings: readonly CoderPromptFinding[];
  },
): Promise<AttemptOutcome> {
  const { coder, mode, attempt, containment } = options;
  const workspace = options.workspace.worktreePath;
  const { protocol } = run.context;
  const constraints = constraintsForMode(protocol, mode.mode_id).map((constraint) => constraint.description);
  const guidance = {
    modeName: mode.name,
    ...(mode.instructions ? { instructions: mode.instructions } : {}),
    constraints,
    ...(mode.scope ? { scope: mode.scope } : {}),
  };
  const prompt = buildCoderPrompt({
    task: run.options.task,
    ...guidance,
    findings: options.findings,
    attempt,
  });
  const instructions = buildInstructions(guidance);
  writeFileSync(run.paths.instructions, instructions);
  const headBefore = await revParse(workspace, 'HEAD');
  const timeoutSeconds = coder.timeout.value;

  // The coder's process group is written to state.json as soon as it is reported; awaited before clearing.
  let recordingProcess: Promise<unknown> | undefined;
  const request: CoderV1Request = {
    jobId: run.jobId,
    attempt,
    task: run.options.task,
    prompt,
    workspace,
    model: coder.models.coder.model,
    env: coder.env,
    timeoutMs: timeoutSeconds * 1000,
    abortSignal: run.signal ?? new AbortController().signal,
    instructions,
    instructionsPath: run.paths.instructions,
    transcriptPath: run.paths.transcript,
    homeDirectory: run.paths.home,
    stateDirectory: run.paths.coderState,
    ...(containment.coderSandbox ? { sandbox: containment.coderSandbox } : {}),
    coderConfig: coder.coderConfig,
    emit: (event) => {
      switch (event.type) {
        case 'coder-output':
        case 'coder-progress':
          run.emit({ ...event, jobId: run.jobId });
          return;
        case 'usage':
          run.emit({
            type: 'usage',
            jobId: run.jobId,
            role: 'coder',
            usage: event.usage,
            totalTokens: run.usage.totalTokens(),
          });
          return;
        case 'coder-process':
          recordingProcess = recordCoderProcess(run, event.pid, event.processGroup, event.tag);
          return;
      }
    },
  };
  await run.audit('coder-start', {
    attempt,
    coder: coder.adapter.id,
    kind: coder.adapter.kind,
    model: coder.models.coder.model,
    timeout_seconds: timeoutSeconds,
    prompt_sha256: createHash('sha256').update(prompt).digest('hex'),
    base_commit: headBefore,
  });

  const started = Date.now();
  const guard = await takeJobGuard(run);
  const during = `${coder.adapter.displayName}'s attempt ${attempt}`;
  let result: CoderV1Result;
  try {
    result = await coder.adapter.doRun(request);
  } catch (error) {
    await forgetCoderProcess(run, recordingProcess);
    // Tampering outranks however the attempt failed: it is what the user must hear about.
    await guard.verify(during);
    // A failed attempt may still have spent tokens (a truncated answer, an exhausted turn budget);
    // coders attach them to the error so the job's cost stays true.
    const spent = (error as { usage?: CoderV1Result['usage'] }).usage;
    if (spent) await run.recordUsage('coder', { ...spent, model: spent.model ?? coder.models.coder.model });
    throw error;
  }
  await forgetCoderProcess(run, recordingProcess);
  await guard.verify(during);
  if (options.workspace.isolated && readWorkspaceMarker(workspace) !== undefined) {
    // Filesystem only: a planted `.git/commondir` or a swapped `.git` must be found before snodo runs git
    // in the workspace again (it would read a config that is not snodo's).
    assertWorkspaceIntact({ worktreePath: workspace, branch: options.workspace.branch });
  }
  if (coder.adapter.kind === 'engine-managed' && result.status === 'changed') {
    await commitProposals(run, coder, workspace, result);
  }
  const checked = await checkAttempt(coder, workspace, headBefore);
  if (coder.adapter.kind === 'in-place' && result.commit !== undefined && result.commit !== checked.commit) {
    throw new CoderContractViolationError({
      coderId: coder.adapter.id,
      displayName: coder.adapter.displayName,
      problem: `it reported commit ${result.commit} but the task branch is at ${checked.commit ?? headBefore}`,
    });
  }
  if (checked.commit !== undefined && options.workspace.isolated) {
    // The user sees the task branch in their own repository; landing and `snodo task …` work from it.
    await importTaskBranch({
      repositoryRoot: run.context.repositoryRoot,
      worktreePath: workspace,
      branch: options.workspace.branch,
      expectedCommit: checked.commit,
    });
  }
  const status = checked.commit ? 'changed' : 'no-changes';
  const durationMs = result.durationMs ?? Date.now() - started;
  if (result.usage) {
    await run.recordUsage('coder', {
      ...result.usage,
      model: result.usage.model ?? coder.models.coder.model,
    });
  }
  const diffHash = checked.commit
    ? createHash('sha256')
        .update(await diffPatch({ cwd: workspace, from: headBefore, to: checked.commit }))
        .digest('hex')
    : undefined;
  await run.audit('coder-end', {
    attempt,
    status,
    commit: checked.commit,
    files: checked.changedFiles,
    diff_sha256: diffHash,
    cli_version: result.cliVersion ?? coder.availability.version,
    argv: result.argv ? [...result.argv] : undefined,
    exit_code: result.exitCode,
    duration_ms: Math.round(durationMs),
    usage: JobRun.auditUsage(result.usage),
  });
  const record: AttemptRecord = {
    attempt,
    status,
    changedFiles: checked.changedFiles,
    durationMs: Math.round(durationMs),
    ...(checked.commit ? { commit: checked.commit } : {}),
    ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
    ...(result.cliVersion ? { cliVersion: result.cliVersion } : {}),
  };
  await run.updateState((state) => ({ ...state, attempts: [...state.attempts, record] }));
  return {
    status,
    changedFiles: checked.changedFiles,
    result,
    ...(checked.commit ? { commit: checked.commit } : {}),
  };
}
