import { z } from 'zod';

/**
 * Where a job stands. `running` while a process works on it; the others are final until a human acts
 * (`halted` escalations can be approved or rejected, kept branches merged or abandoned).
 *
 * - `done`: the change landed (or was left on its branch by `merge_strategy: none`), or there was nothing
 *   to change.
 * - `halted`: governance stopped it (blocker, escalation, validator error, merge conflict, deferred merge,
 *   `.snodo/` mutation). The branch and worktree are kept.
 * - `failed`: the coder or the environment failed (not installed, timeout, crash).
 * - `cancelled`: the user stopped it. `interrupted`: the process died and a later start found it.
 * - `rejected` / `abandoned`: a human closed it.
 */
export const jobStatusSchema = z.enum([
  'running',
  'done',
  'halted',
  'failed',
  'cancelled',
  'interrupted',
  'rejected',
  'abandoned',
]);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** Token usage and cost of one role (coder, judges, classifier), summed over its calls. */
export const roleUsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative(),
  /** Of `inputTokens`, those written to a provider's prompt cache; absent when none were. */
  cacheWriteTokens: z.number().int().nonnegative().optional(),
  /** `null` when any call's cost was unknown and none was reported. */
  costUsd: z.number().nonnegative().nullable(),
  /** `reported` when every number came from the coder or provider; `estimated` when snodo filled any in. */
  source: z.enum(['reported', 'estimated']),
  calls: z.number().int().nonnegative(),
  models: z.array(z.string()),
});
export type RoleUsage = z.infer<typeof roleUsageSchema>;

const modelChoiceSchema = z.object({ model: z.string().optional(), source: z.string() });

const stageTimingSchema = z.object({
  startedAt: z.string(),
  endedAt: z.string().optional(),
  durationMs: z.number().int().nonnegative().optional(),
});

/** One tool call of a judge: the tool, its input as JSON text, whether it answered, the bytes it returned. */
const judgeToolCallRecordSchema = z.object({
  tool: z.string(),
  input: z.string(),
  ok: z.boolean(),
  error: z.string().optional(),
  bytes: z.number().int().nonnegative(),
});

export const verdictRecordSchema = z.object({
  gateId: z.string(),
  gateType: z.string(),
  phase: z.string(),
  attempt: z.number().int(),
  severity: z.enum(['pass', 'warn', 'blocker']),
  error: z.boolean(),
  justification: z.string(),
  originalSeverity: z.enum(['pass', 'warn', 'blocker']).optional(),
  model: z.string().optional(),
  durationMs: z.number().int().nonnegative().optional(),
  /** The read-only tool calls a judge with `tools:` made before it answered (SPEC §15), in order. */
  toolCalls: z.array(judgeToolCallRecordSchema).optional(),
});

const attemptRecordSchema = z.object({
  attempt: z.number().int().positive(),
  status: z.enum(['changed', 'no-changes']),
  commit: z.string().optional(),
  changedFiles: z.array(z.string()),
  durationMs: z.number().int().nonnegative(),
  exitCode: z.number().int().optional(),
  cliVersion: z.string().optional(),
});

const decisionRecordSchema = z.object({
  action: z.enum(['approve', 'reject', 'merge', 'abandon', 'cancel']),
  by: z.string(),
  at: z.string(),
  reason: z.string().optional(),
});

/** `state.json`: everything `snodo meta`, `snodo task …` and embedders need to know about a job. */
export const jobStateSchema = z.object({
  version: z.literal(1),
  jobId: z.string(),
  status: jobStatusSchema,
  /** The specific reason for a final status (`merged`, `blocker`, `escalated`, `merge_conflict`…). */
  outcome: z.string().optional(),
  /** One line for people: what happened and what to do next. */
  summary: z.string().optional(),
  task: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  endedAt: z.string().optional(),
  /** The process working on the job, so a later start can tell a crash from a live run. */
  process: z.object({
    pid: z.number().int(),
    hostname: z.string(),
    startedAt: z.string(),
    startTimeMs: z.number().int().optional(),
  }),
  /**
   * The coder's process group while an attempt runs (reported by the coder), so a later start can stop it
   * if this job's snodo process died. Cleared when the attempt ends.
   */
  coderProcess: z
    .object({
      pid: z.number().int(),
      processGroup: z.number().int(),
      startTimeMs: z.number().int().optional(),
      /** The supervisor's environment tag, so a `setsid` grandchild that left the group is found too. */
      tag: z.string().optional(),
    })
    .optional(),
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
  models: z
    .object({ judging: modelChoiceSchema, classifier: modelChoiceSchema, coder: modelChoiceSchema })
    .optional(),
  stages: z.record(z.string(), stageTimingSchema),
  usage: z.record(z.string(), roleUsageSchema),
  verdicts: z.array(verdictRecordSchema),
  attempts: z.array(attemptRecordSchema),
  isolation: z
    .object({
      /**
       * `repository`: a workspace repository of its own (what snodo creates); `worktree`: a linked worktree
       * made by an earlier snodo (still read for kept jobs); `none`: `--no-isolation`, the user's checkout.
       */
      mode: z.enum(['repository', 'worktree', 'none']),
      worktreePath: z.string(),
      branch: z.string(),
      baseRef: z.string(),
      baseCommit: z.string(),
      /** The landing ledger's size when the job started: base moves after it are other jobs' landings. */
      landingLedgerOffset: z.number().int().nonnegative().optional(),
      /** The base tip when landing escalated because the base gained commits no snodo landing made. */
      pendingBaseCommit: z.string().optional(),
      /** That tip once a human approved landing on top of it; later foreign commits escalate again. */
      acceptedBaseCommit: z.string().optional(),
    })
    .optional(),
  /**
   * Whether the job's code-running steps (the coder, command gates) ran in a sandbox (SPEC §12):
   * `bubblewrap`, or `none` with the reason (no bubblewrap here, `execution.sandbox: off`, `--no-isolation`,
   * a coder that starts processes outside it).
   */
  sandbox: z
    .object({
      kind: z.enum(['bubblewrap', 'none']),
      reason: z.string().optional(),
      /** Whether command gates kept the network. */
      gateNetwork: z.boolean(),
    })
    .optional(),
  landing: z
    .object({
      strategy: z.string(),
      outcome: z.string(),
      mergeCommit: z.string().optional(),
      previousBaseCommit: z.string().optional(),
      conflictedFiles: z.array(z.string()).optional(),
      overlappingPaths: z.array(z.string()).optional(),
    })
    .optional(),
  /**
   * The job's spending caps with their sources (`flag`, `protocol`, `approve`), and, when the job stopped at
   * one, what it had spent then and where (SPEC §15). `snodo task approve --budget` raises a cap and clears
   * `exceeded`. Absent for a job without caps.
   */
  budget: z
    .object({
      maxCostUsd: z.object({ value: z.number().positive(), source: z.string() }).optional(),
      maxTokens: z.object({ value: z.number().int().positive(), source: z.string() }).optional(),
      exceeded: z
        .object({
          cap: z.enum(['cost', 'tokens']),
          limit: z.number().positive(),
          costUsd: z.number().nonnegative().nullable(),
          tokens: z.number().int().nonnegative(),
          /** `pre_execute` (before the coder ran), `execute` (the coder was stopped), `post_execute`. */
          phase: z.string(),
          at: z.string(),
        })
        .optional(),
    })
    .optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  checkpoint: z.string().optional(),
  decisions: z.array(decisionRecordSchema),
});
export type JobState = z.infer<typeof jobStateSchema>;
export type VerdictRecord = z.infer<typeof verdictRecordSchema>;
export type AttemptRecord = z.infer<typeof attemptRecordSchema>;
export type DecisionRecord = z.infer<typeof decisionRecordSchema>;

/** `task.json`: the request exactly as it was made, for the record and for `snodo task show`. */
export const jobTaskSchema = z.object({
  version: z.literal(1),
  jobId: z.string(),
  task: z.string(),
  createdAt: z.string(),
  cwd: z.string(),
  options: z.record(z.string(), z.unknown()),
});
export type JobTask = z.infer<typeof jobTaskSchema>;
