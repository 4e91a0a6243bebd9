import { jobStatusSchema, roleUsageSchema, verdictRecordSchema } from '@snodo/core';
import { z } from 'zod';

// The job record's parts are core's own schemas: the JSON printed is core's `state.json`, so one definition
// serves both and cannot drift.

/** One gate verdict, as `state.json` and `--json` carry it. */
export const verdictJsonSchema = verdictRecordSchema;

/** Tokens and cost of one role. */
export const roleUsageJsonSchema = roleUsageSchema;

/** A job status, as core defines it. */
export const jobStatusJsonSchema = jobStatusSchema;

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
