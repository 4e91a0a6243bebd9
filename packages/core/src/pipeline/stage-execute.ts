import { createHash } from 'node:crypto';
import type { CoderPromptFinding, CoderV1Request, CoderV1Result } from '@snodo/coder-sdk';
import { type DiffNameStatusEntry, revParse } from '../git/index.js';
import { assertWorkspaceIntact, importTaskBranch, readWorkspaceMarker } from '../isolation/index.js';
import type { ProtocolMode } from '../protocol/index.js';
import { writeAttemptPrompt } from './attempt-prompt.js';
import { assertReportedCommit, checkAttempt, commitProposals } from './check-attempt.js';
import { CoderProcessRecord } from './coder-process-record.js';
import { buildCoderRequest } from './coder-request.js';
import type { JobContainment } from './job-containment.js';
import { takeJobGuard } from './job-guard.js';
import type { JobRun } from './job-run.js';
import { attemptDiffHash, recordAttempt } from './record-attempt.js';
import type { ResolvedCoder } from './stage-resolve.js';
import type { RunWorkspace } from './task-workspace.js';

/** What one coder attempt left on the task branch. */
export interface AttemptOutcome {
  readonly status: 'changed' | 'no-changes';
  readonly commit?: string;
  readonly changedFiles: readonly string[];
  /** The attempt's change (`headBefore..commit`, renames detected), for the gates when it is the whole diff. */
  readonly changes?: {
    readonly from: string;
    readonly to: string;
    readonly entries: readonly DiffNameStatusEntry[];
  };
  readonly result: CoderV1Result;
  /** The job's budget ran out during the attempt: the coder was stopped (or had just finished). */
  readonly stoppedByBudget: boolean;
}

/**
 * Runs the coder under the repository guard: tampering found after the attempt outranks however it ended.
 * A failed attempt may still have spent tokens (a truncated answer, an exhausted turn budget); coders attach
 * them to the error so the job's cost stays true, else the last usage it reported while running counts.
 * An attempt the job's budget stopped (SPEC §15) is not a failure: it comes back as an empty result, and
 * what the coder left in the worktree is committed like any attempt's work.
 */
async function runGuarded(
  run: JobRun,
  coder: ResolvedCoder,
  request: CoderV1Request,
  processRecord: CoderProcessRecord,
): Promise<{ result: CoderV1Result; stoppedByBudget: boolean }> {
  const guard = await takeJobGuard(run);
  const during = `${coder.adapter.displayName}'s attempt ${request.attempt}`;
  const started = Date.now();
  let result: CoderV1Result;
  try {
    result = await coder.adapter.doRun(request);
  } catch (error) {
    await processRecord.forget();
    await guard.verify(during);
    const inFlight = run.budget?.takeInFlightUsage();
    const spent = (error as { usage?: CoderV1Result['usage'] }).usage ?? inFlight;
    if (spent) run.recordUsage('coder', { ...spent, model: spent.model ?? coder.models.coder.model });
    if (run.budget?.stoppedAttempt() !== undefined && run.signal?.aborted !== true) {
      const stopped: CoderV1Result = {
        status: 'changed',
        changedFiles: [],
        usage: null,
        durationMs: Math.max(0, Date.now() - started),
      };
      return { result: stopped, stoppedByBudget: true };
    }
    throw error;
  }
  run.budget?.takeInFlightUsage();
  await processRecord.forget();
  await guard.verify(during);
  return { result, stoppedByBudget: run.budget?.stoppedAttempt() !== undefined };
}

/**
 * One coder attempt (SPEC §2 step 7): the prompt, the coder run in the worktree under the guard, an
 * engine-managed coder's proposals committed, core's re-checks of what the attempt left, the task branch
 * imported into the user's repository, and the record: `coder-start` and `coder-end` in the audit log, the
 * attempt in `state.json`, the coder's usage.
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
    /** This attempt continues work a budget stop cut short. */
    continuing?: boolean;
  },
): Promise<AttemptOutcome> {
  const { coder, attempt } = options;
  const workspace = options.workspace.worktreePath;
  const { prompt, instructions } = writeAttemptPrompt(run, options);
  const headBefore = await revParse(workspace, 'HEAD');
  const processRecord = new CoderProcessRecord(run);
  const request = buildCoderRequest(run, {
    coder,
    containment: options.containment,
    workspace,
    attempt,
    prompt,
    instructions,
    processRecord,
  });
  await run.audit('coder-start', {
    attempt,
    coder: coder.adapter.id,
    kind: coder.adapter.kind,
    model: coder.models.coder.model,
    timeout_seconds: coder.timeout.value,
    prompt_sha256: createHash('sha256').update(prompt).digest('hex'),
    base_commit: headBefore,
  });

  const started = Date.now();
  const { result, stoppedByBudget } = await runGuarded(run, coder, request, processRecord);
  if (options.workspace.isolated && readWorkspaceMarker(workspace) !== undefined) {
    // Filesystem only: a planted `.git/commondir` or a swapped `.git` must be found before snodo runs git
    // in the workspace again (it would read a config that is not snodo's).
    assertWorkspaceIntact({ worktreePath: workspace, branch: options.workspace.branch });
  }
  // After snodo's own `git add --all` and commit nothing can be left over, so that re-check is spared.
  // A coder stopped by the budget made no commit of its own: snodo commits what it left, as for proposals.
  const committedEverything =
    (coder.adapter.kind === 'engine-managed' || stoppedByBudget) &&
    result.status === 'changed' &&
    (await commitProposals(run, coder, workspace, result, options.workspace.isolated)) !== undefined;
  const checked = await checkAttempt(coder, workspace, headBefore, { committedEverything });
  assertReportedCommit(coder, result, checked, headBefore);
  // The diff's hash reads the workspace only: it runs beside the import, which reads the workspace too.
  const diffHash = attemptDiffHash({ workspace, headBefore, commit: checked.commit });
  diffHash.catch(() => undefined);
  if (checked.commit !== undefined && options.workspace.isolated) {
    // The user sees the task branch in their own repository; landing and `snodo task …` work from it.
    await importTaskBranch({
      repositoryRoot: run.context.repositoryRoot,
      worktreePath: workspace,
      branch: options.workspace.branch,
      expectedCommit: checked.commit,
    });
  }
  const status = await recordAttempt(run, {
    coder,
    attempt,
    workspace,
    headBefore,
    checked,
    result,
    durationMs: Math.max(0, result.durationMs ?? Date.now() - started),
    diffHash,
  });
  return {
    status,
    changedFiles: checked.changedFiles,
    result,
    stoppedByBudget,
    ...(checked.commit
      ? {
          commit: checked.commit,
          changes: { from: headBefore, to: checked.commit, entries: checked.changes },
        }
      : {}),
  };
}
