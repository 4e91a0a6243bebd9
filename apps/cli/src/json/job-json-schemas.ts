import { z } from 'zod';
import { jobStatusJsonSchema, roleUsageJsonSchema, verdictJsonSchema } from './run-result-json-schema.js';

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

const modelChoice = z.object({ model: z.string().optional(), source: z.string() });

/** A job's `state.json`, as `snodo meta --json` and `snodo task show --json` print it. */
export const jobStateJsonSchema = z.object({
  version: z.literal(1),
  jobId: z.string(),
  status: jobStatusJsonSchema,
  outcome: z.string().optional(),
  summary: z.string().optional(),
  task: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  endedAt: z.string().optional(),
  mode: z.string().optional(),
  flowType: z.string().optional(),
  coder: z
    .object({
      id: z.string(),
      displayName: z.string(),
      kind: z.string(),
      source: z.string(),
      version: z.string().optional(),
    })
    .optional(),
  models: z.object({ judging: modelChoice, classifier: modelChoice, coder: modelChoice }).optional(),
  stages: z.record(
    z.string(),
    z.object({ startedAt: z.string(), endedAt: z.string().optional(), durationMs: z.number().optional() }),
  ),
  usage: z.record(z.string(), roleUsageJsonSchema),
  verdicts: z.array(verdictJsonSchema),
  attempts: z.array(
    z.object({
      attempt: z.number().int().positive(),
      status: z.enum(['changed', 'no-changes']),
      commit: z.string().optional(),
      changedFiles: z.array(z.string()),
      durationMs: z.number().int().nonnegative(),
    }),
  ),
  isolation: z
    .object({
      mode: z.enum(['worktree', 'none']),
      worktreePath: z.string(),
      branch: z.string(),
      baseRef: z.string(),
      baseCommit: z.string(),
    })
    .optional(),
  landing: z
    .object({ strategy: z.string(), outcome: z.string(), mergeCommit: z.string().optional() })
    .optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  decisions: z.array(
    z.object({
      action: z.enum(['approve', 'reject', 'merge', 'abandon']),
      by: z.string(),
      at: z.string(),
      reason: z.string().optional(),
    }),
  ),
});

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
