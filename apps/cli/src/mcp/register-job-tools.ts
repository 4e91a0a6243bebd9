import { diffJob, findMainCheckout, readJobState, showJob } from '@snodo/core';
import { reconcileAndListJobs, reconcileDeadJobs } from '@snodo/core/jobs';
import { z } from 'zod';
import type { CliContext } from '../cli-context.js';
import { taskOptions } from '../commands/task/task-options.js';
import { jobIdSchema } from './job-id-schema.js';
import { ok, registerSnodoTool, type ToolHost } from './snodo-tool.js';

/** `snodo_job_status`, `snodo_task_list`, `snodo_task_show`, `snodo_task_diff`: reading jobs, never changing them. */
export function registerJobTools(host: ToolHost, context: CliContext, tools: ReadonlySet<string>): void {
  const options = taskOptions(context);
  const repositoryRoot = () => findMainCheckout(context.cwd);
  if (tools.has('snodo_job_status')) {
    registerSnodoTool(
      host,
      'snodo_job_status',
      {
        title: 'Job status',
        description:
          'The current status of one snodo job, for following a job that snodo_run_task started. Returns ' +
          '{job_id, status, outcome, finished, summary, stage, branch, created_at, ended_at}: status is one of ' +
          'running, done, halted, failed, cancelled, interrupted, rejected, abandoned; finished is true once ' +
          'the job will not change by itself (anything but running). outcome says why it ended (merged, ' +
          'blocker, escalated, merge_conflict…). Poll every few seconds until finished is true.',
        inputSchema: z.object({ job_id: jobIdSchema }),
        readOnly: true,
      },
      async ({ job_id }) => {
        const { root } = await repositoryRoot();
        // As every reading command does: a job whose process died reads `interrupted`, never running for ever.
        await reconcileDeadJobs(options, { jobIds: [job_id] });
        const state = readJobState(root, job_id);
        const running = Object.entries(state.stages).find(([, timing]) => timing.endedAt === undefined);
        return ok(
          {
            job_id: state.jobId,
            status: state.status,
            outcome: state.outcome ?? null,
            // Every status but `running` is an ending (job-state.ts).
            finished: state.status !== 'running',
            summary: state.summary ?? null,
            stage: running?.[0] ?? null,
            branch: state.isolation?.branch ?? null,
            created_at: state.createdAt,
            ended_at: state.endedAt ?? null,
          },
          job_id,
        );
      },
    );
  }
  if (tools.has('snodo_task_list')) {
    registerSnodoTool(
      host,
      'snodo_task_list',
      {
        title: 'List jobs',
        description:
          'Every snodo job of this repository, newest first. Returns {jobs: [{job_id, status, outcome, task, ' +
          'created_at, ended_at, branch}]}; task is the first line of the task text. Use a job_id with ' +
          'snodo_job_status, snodo_task_show or snodo_task_diff.',
        inputSchema: z.object({
          limit: z
            .number()
            .int()
            .min(1)
            .max(200)
            .default(20)
            .describe('How many jobs to return (newest first).'),
        }),
        readOnly: true,
      },
      async ({ limit }) => {
        // Newest first, as listJobs returns them.
        const jobs = (await reconcileAndListJobs(options)).jobs.slice(0, limit).map((state) => ({
          job_id: state.jobId,
          status: state.status,
          outcome: state.outcome ?? null,
          task: state.task.split('\n')[0] ?? '',
          created_at: state.createdAt,
          ended_at: state.endedAt ?? null,
          branch: state.isolation?.branch ?? null,
        }));
        return ok({ jobs });
      },
    );
  }
  if (tools.has('snodo_task_show')) {
    registerSnodoTool(
      host,
      'snodo_task_show',
      {
        title: 'Show a job',
        description:
          'Everything snodo recorded about one job: the task, status and outcome, mode, coder and models, each ' +
          "gate's verdict with its justification, the coder attempts, human decisions and usage. Returns the " +
          'job record as JSON (the same document as `snodo task show --json`).',
        inputSchema: z.object({ job_id: jobIdSchema }),
        readOnly: true,
      },
      async ({ job_id }) => {
        await reconcileDeadJobs(options, { jobIds: [job_id] });
        return ok({ job: await showJob({ ...options, jobId: job_id }) }, job_id);
      },
    );
  }
  if (tools.has('snodo_task_diff')) {
    registerSnodoTool(
      host,
      'snodo_task_diff',
      {
        title: 'Diff of a job',
        description:
          'The change a job made: its task branch (or merge) against the commit it started from. Returns ' +
          '{job_id, baseCommit, headCommit, files: [{path, status, previousPath?}], patch} where patch is a unified diff. Refused for a ' +
          'job that never got a workspace (it was halted before the coder ran).',
        inputSchema: z.object({ job_id: jobIdSchema }),
        readOnly: true,
      },
      async ({ job_id }) => ok({ job_id, ...(await diffJob({ ...options, jobId: job_id })) }, job_id),
    );
  }
}
