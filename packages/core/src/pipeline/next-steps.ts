import type { JobEnding } from './job-ending.js';

/**
 * The commands that inspect, finish or discard a kept job, for the summary and `state.json`. A job halted
 * before execution keeps no workspace (it is made once the pre-execute gates pass) but still awaits a
 * decision: it can be shown, approved or rejected when escalated, and abandoned.
 */
export function nextSteps(jobId: string, ending: JobEnding, kept: boolean): string[] {
  // A job stopped at its budget is approved only with a higher cap: the plain command would be refused.
  const approve = `snodo task approve ${jobId}${ending.approveFlags ? ` ${ending.approveFlags}` : ''} --reason "…"`;
  if (!kept) {
    if (ending.status !== 'halted') return [];
    return [
      `snodo task show ${jobId}`,
      ...(ending.outcome === 'escalated' ? [approve, `snodo task reject ${jobId}`] : []),
      `snodo task abandon ${jobId}`,
    ];
  }
  const steps = [`snodo task show ${jobId}`, `snodo task diff ${jobId}`];
  if (ending.outcome === 'escalated') steps.push(approve, `snodo task reject ${jobId}`);
  if (['merge_deferred', 'merge_conflict', 'not_fast_forward', 'branch_kept'].includes(ending.outcome)) {
    steps.push(`snodo task merge ${jobId}`);
  }
  steps.push(`snodo task abandon ${jobId}`);
  return steps;
}
