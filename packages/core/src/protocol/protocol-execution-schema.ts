import { z } from 'zod';
import { copyIntoWorkspaceSchema, protocolSetupSchema } from './protocol-setup-schema.js';

const count = (minimum: number, maximum: number) => z.number().int().min(minimum).max(maximum);

/**
 * How a run executes and lands (SPEC §3, §6). Every field has a default, so `execution:` may be left out.
 * The last five fields come from the Python original; they are accepted so its files load, and the
 * loader warns that snodo does not use them.
 */
export const protocolExecutionSchema = z.object({
  /** Branch the task branch starts from and merges into; default: the branch checked out at start. */
  base_branch: z.string().min(1).optional(),
  /** How a passing job lands: `merge` (fast-forward when possible), `ff-only`, `squash`, or `none`. */
  merge_strategy: z.enum(['ff-only', 'merge', 'squash', 'none']).default('merge'),
  /** Extra coder runs allowed to fix recoverable post-execute failures (each is one commit). */
  max_fix_attempts: count(0, 20).default(2),
  /** Whether failing tests count as recoverable (re-run the coder) instead of halting the job. */
  fix_failing_tests: z.boolean().default(false),
  /** Wall-clock limit for one coder run, in seconds. */
  coder_timeout_seconds: z.number().int().positive().default(1800),
  /** Judges and command gates of one phase that may run at the same time. */
  gate_concurrency: count(1, 64).default(4),
  /**
   * Whether one judge of a phase runs first, writing the prompt prefix all the phase's judges share to the
   * provider's cache, before the others start and read it (SPEC §15). Default `true`; `false` starts them
   * together (lower latency, each writes the prefix).
   */
  warm_judge_cache: z.boolean().optional(),
  /**
   * Whether code the coder could have written (the coder process, command gates) runs in a sandbox (SPEC
   * §12): `auto` when one is available here (else with a warning and `sandbox: none` on record),
   * `required` (refuse to run without one), `off`. Config may only make it stricter.
   */
  sandbox: z.enum(['auto', 'required', 'off']).default('auto'),
  /** Whether sandboxed command gates may use the network. Coders always keep it (they reach their LLM). */
  sandbox_network: z.boolean().default(true),
  /**
   * How the job's workspace is prepared before the coder and the gates run (SPEC §6): `auto` (default)
   * detects an offline-first install from the lockfile and records what it chose; `none`; or a command.
   * Runs in the job's sandbox with the network on (installs fetch packages), whatever `sandbox_network` says.
   */
  setup: protocolSetupSchema.default('auto'),
  /** Globs of untracked files (`.env`) copied from the main checkout into the workspace before setup. */
  copy_into_workspace: copyIntoWorkspaceSchema.default([]),
  /**
   * The job's spending cap in US dollars, across the classifier, the judges and the coder (SPEC §15); checked
   * as usage arrives. Reaching it stops the coder, keeps its work and escalates; `snodo task approve <job>
   * --budget <usd>` continues with a higher cap. `--max-cost` overrides it. Unset: no cap.
   */
  max_cost_usd: z.number().positive().finite().optional(),
  /** The same cap in tokens (input plus output, every role); `--max-tokens` overrides it. */
  max_tokens: z.number().int().positive().optional(),
  /** @deprecated Python original: retry budget of `snodo run --retry`. Not used. */
  max_retries: count(0, 10).optional(),
  /** @deprecated Python original: age of task branches before pruning. Not used (see `snodo task prune`). */
  branch_ttl_days: count(1, 30).optional(),
  /** @deprecated Python original: declared task-branch prefix (never used there either). Not used. */
  branch_prefix: z.string().optional(),
  /** @deprecated Python original: recovery-loop depth. Not used; `max_fix_attempts` bounds fix runs. */
  max_recovery_depth: count(0, 20).optional(),
  /** @deprecated Python original: global fix-subtask budget. Not used; see `max_fix_attempts`. */
  max_total_fix_attempts: count(1, 100).optional(),
});

/** The `execution` section as loaded, defaults filled. */
export type ProtocolExecution = z.infer<typeof protocolExecutionSchema>;

/**
 * Why each legacy execution key is ignored and what replaces it; the loader turns these into warnings.
 */
export const LEGACY_EXECUTION_KEYS: Readonly<Record<string, string>> = {
  max_retries: 'this snodo has no `--retry` budget; run the task again instead',
  branch_ttl_days: 'kept jobs are pruned with `snodo task prune --older-than`',
  branch_prefix: 'task branches are always named `snodo/<job>-<slug>`',
  max_recovery_depth: 'there is no recovery loop; fix runs are bounded by `execution.max_fix_attempts`',
  max_total_fix_attempts: 'fix runs are bounded per job by `execution.max_fix_attempts`',
};
