import { rmSync } from 'node:fs';
import type { JobEnding } from './job-ending.js';
import type { JobRun } from './job-run.js';
import { nextSteps } from './next-steps.js';
import type { RunTaskResult } from './run-task-result.js';
import type { RunWorkspace } from './task-workspace.js';

/**
 * Ends a job, whatever happened: the final `state.json`, `job-end` in the audit log, the log flushed to
 * disk and a signed checkpoint over it (stored outside the repository and in `refs/snodo/audit`), then
 * the `job-end` event with the result.
 */
export async function finishJob(
  run: JobRun,
  ending: JobEnding,
  workspace: RunWorkspace | undefined,
): Promise<RunTaskResult> {
  const durationMs = Date.now() - run.startedAt;
  // The sandbox's private /tmp ends with the job (a build may have filled it).
  rmSync(run.paths.tmp, { recursive: true, force: true });
  const kept = workspace?.isolated === true && !ending.landing?.worktreeRemoved;
  const steps = nextSteps(run.jobId, ending, kept);
  const summary = ending.summary;
  let state = await run.updateState((current) => ({
    ...current,
    status: ending.status,
    outcome: ending.outcome,
    summary,
    endedAt: new Date().toISOString(),
    ...(ending.error ? { error: ending.error } : {}),
    ...(ending.landing
      ? {
          landing: {
            strategy: ending.landing.strategy,
            outcome: ending.landing.outcome,
            ...(ending.landing.mergeCommit ? { mergeCommit: ending.landing.mergeCommit } : {}),
            ...(ending.landing.previousBaseCommit
              ? { previousBaseCommit: ending.landing.previousBaseCommit }
              : {}),
            ...(ending.landing.conflictedFiles
              ? { conflictedFiles: [...ending.landing.conflictedFiles] }
              : {}),
            ...(ending.landing.overlappingPaths
              ? { overlappingPaths: [...ending.landing.overlappingPaths] }
              : {}),
          },
        }
      : {}),
  }));
  let checkpoint: string | undefined;
  try {
    if (ending.tamper !== undefined) {
      await run.audit('repository-tamper', {
        during: ending.tamper.during,
        findings: ending.tamper.findings.map((finding) => ({ ...finding })),
      });
    }
    await run.audit('job-end', {
      status: ending.status,
      outcome: ending.outcome,
      error_code: ending.error?.code,
      duration_ms: durationMs,
      attempts: state.attempts.length,
      merge_commit: ending.landing?.mergeCommit,
      kept,
    });
    await run.auditTrail.sync();
    const saved = await run.auditTrail.checkpoint();
    checkpoint = saved.trailer;
    for (const warning of saved.warnings) run.note('warn', warning);
    state = await run.updateState((current) => ({ ...current, checkpoint }));
  } catch (error) {
    // The job's record in state.json is complete without it (a log that a coder cut short refuses
    // appends); say so rather than fail the job after the fact. `snodo audit verify` shows the damage.
    run.note(
      'warn',
      `Could not finish the audit record of this job: ${error instanceof Error ? error.message : String(error)}. Run \`snodo audit verify\`.`,
    );
  }
  const result: RunTaskResult = {
    jobId: run.jobId,
    status: ending.status,
    outcome: ending.outcome,
    summary,
    nextSteps: steps,
    task: run.options.task,
    ...(state.mode ? { mode: state.mode } : {}),
    ...(state.coder
      ? {
          coder: {
            id: state.coder.id,
            displayName: state.coder.displayName,
            ...(state.coder.version ? { version: state.coder.version } : {}),
          },
        }
      : {}),
    ...(state.models
      ? {
          models: {
            ...(state.models.judging.model ? { judging: state.models.judging.model } : {}),
            ...(state.models.classifier.model ? { classifier: state.models.classifier.model } : {}),
            ...(state.models.coder.model ? { coder: state.models.coder.model } : {}),
          },
        }
      : {}),
    ...(workspace
      ? {
          branch: workspace.branch,
          baseRef: workspace.baseRef,
          baseCommit: workspace.baseCommit,
          ...(kept ? { worktreePath: workspace.worktreePath } : {}),
        }
      : {}),
    ...(ending.landing?.mergeCommit ? { mergeCommit: ending.landing.mergeCommit } : {}),
    ...(ending.landing?.conflictedFiles ? { conflictedFiles: ending.landing.conflictedFiles } : {}),
    changedFiles: [...new Set(state.attempts.flatMap((attempt) => attempt.changedFiles))].sort(),
    attempts: state.attempts.length,
    verdicts: state.verdicts,
    usage: state.usage,
    ...(state.budget ? { budget: state.budget } : {}),
    durationMs,
    ...(ending.error ? { error: ending.error } : {}),
    ...(checkpoint ? { checkpoint } : {}),
  };
  run.emit({ type: 'job-end', jobId: run.jobId, result });
  return result;
}
