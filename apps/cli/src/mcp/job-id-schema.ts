import { z } from 'zod';

/** A job id as snodo writes it: `j_` and 6–32 lower-case letters or digits. */
export const jobIdSchema = z
  .string()
  .regex(/^j_[0-9a-z]{6,32}$/, 'a job id looks like j_k3x9q2m8a1 (from snodo_run_task or snodo_task_list)')
  .describe('The job id, e.g. "j_k3x9q2m8a1", as snodo_run_task or snodo_task_list returned it.');
