import { approveJob, type RunTaskResult, rejectJob } from '@snodo/core';
import { z } from 'zod';
import type { CliContext } from '../cli-context.js';
import { builtInCoders } from '../coders/built-in-coders.js';
import { taskOptions } from '../commands/task/task-options.js';
import { askHuman } from './ask-human.js';
import { jobIdSchema } from './job-id-schema.js';
import { ok, refuse, registerSnodoTool, type ToolHost, type ToolOutcome } from './snodo-tool.js';

// How long an approval call waits for the continued job before answering "still running".
const APPROVAL_ANSWER_WAIT_MS = 2_000;

const decisionInput = z.object({
  job_id: jobIdSchema,
  reason: z
    .string()
    .min(1)
    .describe('Why, in a sentence: recorded in the audit log with the approver’s name.'),
});

/**
 * `snodo_task_approve` / `snodo_task_reject`, registered only when `snodo serve` names an approver. They
 * decide as that human: each asks the user through elicitation where the client can, and neither acts on
 * a job this session started (a session can never approve its own work).
 */
export function registerApprovalTools(
  host: ToolHost,
  context: CliContext,
  tools: ReadonlySet<string>,
  options: { readonly approver: string; readonly track: (work: Promise<unknown>) => void },
): void {
  const { approver } = options;
  const guard = async (
    jobId: string,
    verb: 'approve' | 'reject',
    serverContext: Parameters<typeof askHuman>[1],
  ): Promise<{ refusal: ToolOutcome } | { reason?: string }> => {
    if (host.session.started(jobId)) {
      return {
        refusal: refuse(
          `job ${jobId} was started by this MCP session, and a session can never ${verb} its own work. ` +
            `A human decides it: snodo task ${verb} ${jobId} --reason "<why>"`,
          jobId,
        ),
      };
    }
    const answer = await askHuman(host.server, serverContext, `${approver}: ${verb} snodo job ${jobId}?`);
    if (answer !== undefined && !answer.confirmed) {
      return { refusal: refuse(`nothing was done: ${answer.why} when asked to ${verb} job ${jobId}`, jobId) };
    }
    return answer?.reason === undefined ? {} : { reason: answer.reason };
  };
  if (tools.has('snodo_task_approve')) {
    registerSnodoTool(
      host,
      'snodo_task_approve',
      {
        title: 'Approve an escalated job',
        description:
          `Approves a job the gates escalated, as ${approver} (the human this server acts for); the job then ` +
          'continues (to the coder, or to landing). The user is asked to confirm first where the client ' +
          'supports it. Refused for a job this session started, and for blockers or validator errors, which ' +
          'cannot be approved. Returns {job_id, decision: "approved", status, outcome}; status "running" ' +
          'means the job goes on: follow it with snodo_job_status.',
        inputSchema: decisionInput,
        readOnly: false,
        destructive: true,
      },
      async ({ job_id, reason }, serverContext) => {
        const checked = await guard(job_id, 'approve', serverContext);
        if ('refusal' in checked) return checked.refusal;
        const continued = approveJob({
          ...taskOptions(context),
          actor: approver,
          jobId: job_id,
          coders: builtInCoders,
          reason: checked.reason ?? reason,
        });
        options.track(continued);
        const settled = await Promise.race([
          continued,
          new Promise<undefined>((resolve) =>
            setTimeout(() => resolve(undefined), APPROVAL_ANSWER_WAIT_MS).unref(),
          ),
        ]);
        const result = settled as RunTaskResult | undefined;
        return ok(
          {
            job_id,
            decision: 'approved',
            status: result?.status ?? 'running',
            outcome: result?.outcome ?? null,
          },
          job_id,
        );
      },
    );
  }
  if (tools.has('snodo_task_reject')) {
    registerSnodoTool(
      host,
      'snodo_task_reject',
      {
        title: 'Reject a halted job',
        description:
          `Rejects a halted job as ${approver}: the job ends "rejected" and its change never lands. The user ` +
          'is asked to confirm first where the client supports it. Refused for a job this session started ' +
          'and for a job that is not halted. Returns {job_id, decision: "rejected", status}.',
        inputSchema: decisionInput,
        readOnly: false,
        destructive: true,
      },
      async ({ job_id, reason }, serverContext) => {
        const checked = await guard(job_id, 'reject', serverContext);
        if ('refusal' in checked) return checked.refusal;
        const state = await rejectJob({
          ...taskOptions(context),
          actor: approver,
          jobId: job_id,
          reason: checked.reason ?? reason,
        });
        return ok({ job_id, decision: 'rejected', status: state.status }, job_id);
      },
    );
  }
}
