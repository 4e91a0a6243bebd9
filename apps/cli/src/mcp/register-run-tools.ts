import { openProject, planTask } from '@snodo/core';
import type { CliContext } from '../cli-context.js';
import { builtInCoders } from '../coders/built-in-coders.js';
import { toDryRunPlan } from '../commands/run/dry-run-plan.js';
import { taskRequestFromFlags } from '../commands/run/run-action.js';
import { runFlagsFromInput, runTaskInputSchema } from './run-task-input.js';
import { clientIdentity, ok, registerSnodoTool, type ToolHost } from './snodo-tool.js';
import type { JobStarter } from './start-governed-job.js';

/** `snodo_run_task` and `snodo_dry_run`: the only ways a client gets code changed, both through the gates. */
export function registerRunTools(
  host: ToolHost,
  context: CliContext,
  tools: ReadonlySet<string>,
  options: { readonly mode: string; readonly jobs: JobStarter },
): void {
  if (tools.has('snodo_run_task')) {
    registerSnodoTool(
      host,
      'snodo_run_task',
      {
        title: 'Run a governed task',
        description:
          `Starts a snodo job for a coding task and returns at once with {job_id, status: "running", mode}. ` +
          `The task runs through this repository's protocol (mode "${options.mode}"): pre-execute gates judge ` +
          'the task, a coder changes the code in its own isolated workspace, post-execute gates (tests, ' +
          'judges, constraints) check the real diff, and the change lands on the base branch only if they ' +
          'pass; every decision is audited. Follow the job with snodo_job_status (poll until finished is ' +
          'true), read its change with snodo_task_diff. A job id looks like "j_k3x9q2m8a1". Bad input ' +
          '(empty task, unknown coder, missing model) is refused before a job exists, with the fix.',
        inputSchema: runTaskInputSchema,
        readOnly: false,
      },
      async (input) => {
        const client = clientIdentity(host.server);
        const started = await options.jobs.start({
          ...input,
          mode: options.mode,
          actor: `mcp:${client.name}`,
        });
        host.session.rememberStartedJob(started.jobId);
        return ok({ job_id: started.jobId, status: 'running', mode: options.mode }, started.jobId);
      },
    );
  }
  if (tools.has('snodo_dry_run')) {
    registerSnodoTool(
      host,
      'snodo_dry_run',
      {
        title: 'Plan a task without running it',
        description:
          'What snodo_run_task would do with the same input, computed by the run’s own code: mode, coder and ' +
          'models with where each choice came from, the gates of each phase, the policy, the merge strategy, ' +
          'the base commit and whether the run would start (readiness.ready, and each problem with its fix). ' +
          'Creates no job, workspace, branch or audit event other than this call’s record.',
        inputSchema: runTaskInputSchema,
        readOnly: true,
      },
      async (input) => {
        const project = await openProject({
          cwd: context.cwd,
          env: context.env,
          homeDirectory: context.homeDirectory,
          coders: builtInCoders,
        });
        const plan = await planTask(
          project,
          taskRequestFromFlags(input.task, runFlagsFromInput(input, options.mode)),
        );
        return ok({ plan: toDryRunPlan(plan) });
      },
    );
  }
}
