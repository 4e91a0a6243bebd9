import { z } from 'zod';

/** A severity a gate can give. */
const severitySchema = z.enum(['pass', 'warn', 'blocker']);

/** One gate verdict, as `state.json` and `--json` carry it. */
export const verdictJsonSchema = z.object({
  gateId: z.string(),
  gateType: z.string(),
  phase: z.string(),
  attempt: z.number().int(),
  severity: severitySchema,
  error: z.boolean(),
  justification: z.string(),
  originalSeverity: severitySchema.optional(),
  model: z.string().optional(),
  durationMs: z.number().int().nonnegative().optional(),
});

/** Tokens and cost of one role (coder, judges, classifier). */
export const roleUsageJsonSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative().nullable(),
  source: z.enum(['reported', 'estimated']),
  calls: z.number().int().nonnegative(),
  models: z.array(z.string()),
});

/** A job status, as core defines it. */
export const jobStatusJsonSchema = z.enum([
  'running',
  'done',
  'halted',
  'failed',
  'cancelled',
  'interrupted',
  'rejected',
  'abandoned',
]);

/**
 * `snodo run --json`, `snodo task approve --json` and `snodo task merge --json`: the run's `RunTaskResult`
 * as one JSON document. Scripts read `status` and `outcome`; the exit code says the same.
 */
export const runResultJsonSchema = z.object({
  jobId: z.string().regex(/^j_[a-z0-9]+$/),
  status: jobStatusJsonSchema,
  outcome: z.string(),
  summary: z.string(),
  nextSteps: z.array(z.string()),
  task: z.string(),
  mode: z.string().optional(),
  coder: z.object({ id: z.string(), displayName: z.string(), version: z.string().optional() }).optional(),
  models: z
    .object({
      judging: z.string().optional(),
      classifier: z.string().optional(),
      coder: z.string().optional(),
    })
    .optional(),
  branch: z.string().optional(),
  worktreePath: z.string().optional(),
  baseRef: z.string().optional(),
  baseCommit: z.string().optional(),
  mergeCommit: z.string().optional(),
  conflictedFiles: z.array(z.string()).optional(),
  changedFiles: z.array(z.string()),
  attempts: z.number().int().nonnegative(),
  verdicts: z.array(verdictJsonSchema),
  usage: z.record(z.string(), roleUsageJsonSchema),
  durationMs: z.number().int().nonnegative(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  checkpoint: z.string().optional(),
});
