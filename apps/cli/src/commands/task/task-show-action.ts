import { relative } from 'node:path';
import { readJobDetails, reconcileDeadJobs } from '@snodo/core/jobs';
import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { resolveJobId } from '../../jobs/resolve-job-id.js';
import { firstLine } from '../../output/format.js';
import { formatJobMeta } from '../../output/job-meta.js';
import { judgeToolCallLines } from '../../output/judge-tool-calls.js';
import { severityText } from '../../output/run-summary.js';
import { taskOptions } from './task-options.js';

/** The flags of `snodo task show`. */
export interface TaskShowFlags {
  readonly json?: boolean | undefined;
}

/** What a user can do next with a job in this state. */
function nextSteps(
  jobId: string,
  status: string,
  outcome: string | undefined,
  kept: boolean,
  approveFlags = '',
): string[] {
  if (status === 'running') return [`snodo logs ${jobId} --follow`];
  if (!kept) return [];
  const steps = [`snodo task diff ${jobId}`];
  if (outcome === 'escalated')
    steps.push(`snodo task approve ${jobId}${approveFlags} --reason "…"`, `snodo task reject ${jobId}`);
  if (['merge_deferred', 'merge_conflict', 'not_fast_forward', 'branch_kept'].includes(outcome ?? '')) {
    steps.push(`snodo task merge ${jobId}`);
  }
  steps.push(`snodo task abandon ${jobId}`);
  return steps;
}

/**
 * `snodo task show <job>`: the `snodo meta` screen plus each verdict's justification, the gate evidence
 * files, and the commands that finish or discard the job.
 */
export async function taskShowAction(
  context: CliContext,
  reference: string,
  flags: TaskShowFlags,
): Promise<number> {
  const { jobId, repositoryRoot } = await resolveJobId(context.cwd, reference);
  // A job whose process died is shown as `interrupted`, not `running`.
  await reconcileDeadJobs(taskOptions(context), { jobIds: [jobId] });
  const details = readJobDetails(repositoryRoot, jobId);
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify(details, null, 2)}\n`);
    return EXIT_CODES.done;
  }
  const { out } = context;
  const { state } = details;
  const lines = [formatJobMeta(details, out).trimEnd()];
  const judged = state.verdicts.filter((verdict) => verdict.justification.trim() !== '');
  if (judged.length > 0) {
    lines.push('', '  why:');
    for (const verdict of judged) {
      lines.push(
        `    ${verdict.gateId} ${severityText(verdict.severity, verdict.error, out)}: ${firstLine(verdict.justification, 160)}`,
      );
      lines.push(...judgeToolCallLines(verdict.toolCalls, out));
    }
  }
  if (details.gateFiles.length > 0) {
    lines.push(
      `  evidence  ${details.gateFiles.length} file(s) in ${relative(context.cwd, `${repositoryRoot}/.snodo/jobs/${jobId}/gates`)}`,
    );
  }
  const kept =
    state.isolation !== undefined &&
    state.isolation.mode !== 'none' &&
    state.status !== 'done' &&
    state.status !== 'abandoned';
  // A job stopped at its budget is approved only with a higher cap: the plain command would be refused.
  const exceeded = state.budget?.exceeded;
  const approveFlags =
    exceeded === undefined ? '' : exceeded.cap === 'cost' ? ' --budget <usd>' : ' --max-tokens <n>';
  const steps = nextSteps(
    jobId,
    state.status,
    state.outcome,
    kept || state.outcome === 'branch_kept',
    approveFlags,
  );
  if (steps.length > 0) {
    lines.push('  next:');
    for (const step of steps) lines.push(`    ${step}`);
  }
  context.stdout.write(`${lines.join('\n')}\n`);
  return EXIT_CODES.done;
}
