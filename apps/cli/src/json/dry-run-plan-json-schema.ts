import { z } from 'zod';
import { coderStatusJsonSchema } from './coder-status-json-schema.js';

const sourced = <T extends z.ZodType>(value: T) => z.object({ value, source: z.string() });
const gate = z.object({ id: z.string(), type: z.string() });

/**
 * `snodo run --dry-run --json`: every choice the run would make, each with its source, and nothing
 * created.
 */
export const dryRunPlanJsonSchema = z.object({
  dryRun: z.literal(true),
  task: z.string(),
  repositoryRoot: z.string(),
  protocol: z.object({ path: z.string(), id: z.string(), warnings: z.array(z.string()) }),
  mode: sourced(z.string()).extend({ candidates: z.array(z.string()) }),
  coder: sourced(z.string()).extend({ displayName: z.string(), kind: z.string() }),
  coderStatus: coderStatusJsonSchema,
  models: z.object({
    judging: sourced(z.string().nullable()),
    classifier: sourced(z.string().nullable()),
    coder: sourced(z.string().nullable()),
  }),
  gates: z.object({
    preExecute: z.array(gate),
    postExecute: z.array(gate),
    constraints: z.array(
      z.object({ id: z.string(), predicate: z.string().nullable(), severity: z.string() }),
    ),
  }),
  policy: z.string(),
  merge: sourced(z.string()),
  base: sourced(z.string()).extend({ commit: z.string().regex(/^[0-9a-f]{40,64}$/) }),
  isolation: z.object({ mode: z.enum(['repository', 'none']), directory: z.string() }),
  timeoutSeconds: sourced(z.number().int().positive()),
  maxFixAttempts: z.number().int().nonnegative(),
  /** Whether the run would start; else every reason it would be refused, with its code and fix. */
  readiness: z.object({
    ready: z.boolean(),
    problems: z.array(z.object({ code: z.string(), message: z.string(), fix: z.string().nullable() })),
  }),
});
