import { jobStateSchema } from '@snodo/core';
import { z } from 'zod';
import { jobStatusJsonSchema } from './run-result-json-schema.js';

/** `snodo task list --json`. */
export const taskListJsonSchema = z.object({
  jobs: z.array(
    z.object({
      jobId: z.string(),
      status: jobStatusJsonSchema,
      outcome: z.string().nullable(),
      task: z.string(),
      createdAt: z.string(),
      endedAt: z.string().nullable(),
      branch: z.string().nullable(),
      worktreePath: z.string().nullable(),
      kept: z.boolean(),
    }),
  ),
});

/** A job's `state.json`, as `snodo meta --json` and `snodo task show --json` print it: core's schema. */
export const jobStateJsonSchema = jobStateSchema;

/** `snodo meta --json` and `snodo task show --json`: the job's record. */
export const jobDetailsJsonSchema = z.object({
  state: jobStateJsonSchema,
  task: z.object({ version: z.literal(1), jobId: z.string(), task: z.string(), createdAt: z.string() }),
  transcriptPath: z.string(),
  transcriptBytes: z.number().int().nonnegative(),
  gateFiles: z.array(z.string()),
});

/** `snodo task diff --json`. */
export const jobDiffJsonSchema = z.object({
  baseCommit: z.string(),
  headCommit: z.string(),
  files: z.array(z.object({ status: z.string(), path: z.string(), previousPath: z.string().optional() })),
  patch: z.string(),
});

/** `snodo task abandon --json`. */
export const abandonResultJsonSchema = z.object({
  jobId: z.string(),
  worktreeRemoved: z.boolean(),
  branchDeleted: z.boolean(),
  state: jobStateJsonSchema,
});

/** `snodo task prune --json`. */
export const pruneResultsJsonSchema = z.object({
  results: z.array(
    z.object({
      jobId: z.string(),
      action: z.enum(['removed', 'would-remove', 'skipped']),
      reason: z.string().optional(),
      message: z.string().optional(),
    }),
  ),
});
