import type { GatePhase, GateValidatorSpec } from '../gates/index.js';
import type { JudgeToolSource } from '../gates/judges/judge-tools/judge-tool-source.js';
import { checkStartingPoint } from '../project/plan-task.js';
import type { JobRun } from './job-run.js';

/**
 * What pre-execute judges with a `tools:` grant read: the base commit's tree in the main checkout's
 * repository (objects only; the user's working files are never read), since no task workspace exists
 * before they pass. The base is resolved again the way the run resolved it, and only when such a judge is
 * in the phase, so runs without one spend no git process on it.
 */
export async function preExecuteJudgeSource(
  run: JobRun,
  phase: GatePhase,
  validators: readonly GateValidatorSpec[],
): Promise<JudgeToolSource | undefined> {
  if (phase !== 'pre_execute') return undefined;
  const looks = validators.some(
    (validator) =>
      (validator.evaluation_phase ?? 'pre_execute') === phase && (validator.tools ?? []).length > 0,
  );
  if (!looks) return undefined;
  const base = await checkStartingPoint(run.context, run.options);
  return { directory: run.context.repositoryRoot, headCommit: base.baseCommit, baseCommit: base.baseCommit };
}
