import { z } from 'zod';
import type { BackgroundRunFlags } from '../jobs/background-request.js';

/** The input of `snodo_run_task` and `snodo_dry_run`: a task and the choices a `snodo run` flag makes. */
export const runTaskInputSchema = z.object({
  task: z
    .string()
    .min(1)
    .describe(
      'What the coder should do, in plain words, as a user would type after `snodo run` ' +
        '(e.g. "Add rate limiting to the login route, with tests"). Up to 256 KiB.',
    ),
  coder: z
    .string()
    .optional()
    .describe(
      'A registered coder id (see snodo_coders), e.g. "claude-code". Default: the protocol and config decide.',
    ),
  model: z
    .string()
    .optional()
    .describe(
      'A "provider/model" string for judging and coding, e.g. "anthropic/claude-sonnet-4-5". Default: config.',
    ),
  mock: z
    .boolean()
    .optional()
    .describe(
      'true runs the offline mock coder and mock judges (for trying snodo out; changes nothing real).',
    ),
  base: z
    .string()
    .optional()
    .describe('The branch to start from and land on. Default: the protocol, else the current branch.'),
  max_cost_usd: z
    .number()
    .positive()
    .optional()
    .describe(
      'A spending cap in US dollars for the whole job (judges and coder). Reaching it stops the coder, keeps ' +
        'its work and ends the job escalated for a human to raise the cap. Default: execution.max_cost_usd.',
    ),
  max_tokens: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      'A cap on the tokens the whole job may use, handled like max_cost_usd. Default: execution.max_tokens.',
    ),
});

/** What a client passed to `snodo_run_task` / `snodo_dry_run`. */
export type RunTaskInput = z.infer<typeof runTaskInputSchema>;

/**
 * The `snodo run` flags a client's input stands for, held to the served mode and always isolated (a host
 * agent never works in the user's checkout). `snodo_run_task` starts the job with them and `snodo_dry_run`
 * plans with them, so the plan is the one the job would follow.
 */
export function runFlagsFromInput(input: RunTaskInput, mode: string): BackgroundRunFlags {
  return {
    coder: input.coder,
    model: input.model,
    mock: input.mock === true,
    mode,
    base: input.base,
    maxCost: input.max_cost_usd,
    maxTokens: input.max_tokens,
    isolation: true,
  };
}
