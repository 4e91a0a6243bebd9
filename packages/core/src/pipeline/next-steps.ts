import type { JobEnding } from './job-ending.js';

/** The commands that inspect, finish or discard a kept job, for the summary and `state.json`. */
export function nextSteps(jobId: string, ending: JobEnding, kept: boolean): string[] {
  if (!kept) return [];
  const steps = [`snodo task show ${jobId}`, `snodo task diff ${jobId}`];
  if (ending.outcome === 'escalated')
    steps.push(`snodo task approve ${jobId} --reason "…"`, `snodo task reject ${jobId}`);
  if (['merge_deferred', 'merge_conflict', 'not_fast_forward', 'branch_kept'].includes(ending.outcome)) {
    steps.push(`snodo task merge ${jobId}`);
  }
  steps.push(`snodo task abandon ${jobId}`);
  return steps;
}
