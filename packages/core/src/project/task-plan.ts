import type { LlmCredentialsMissingError } from '@snodo/llm';
import type { JobBudget } from '../budget/index.js';
import type { CoderStatus } from '../coders/check-coder.js';
import type { LandingStrategy, ResolvedBaseBranch } from '../isolation/index.js';
import type {
  DisagreementPolicy,
  ProtocolConstraint,
  ProtocolIssue,
  ProtocolValidator,
} from '../protocol/index.js';
import type { SandboxAvailability } from '../sandbox/detect-sandbox.js';
import type { SandboxSetting } from '../sandbox/sandbox-setting.js';
import type { ModeChoice } from './choose-mode.js';
import type { Sourced } from './coder-timeout.js';
import type { ModelRequiredError } from './model-required-error.js';
import type { Selection, SelectionRequest } from './resolve-selection.js';
import type { TaskReadiness } from './task-readiness.js';

/** What a task asks for: the task and every choice a user can make on the command line. */
export interface TaskRequest extends Omit<SelectionRequest, 'mode'> {
  /** The task, as the user wrote it. */
  readonly task: string;
  /** `--mode <id>`: skips classification. */
  readonly mode?: string | undefined;
  /** `false` for `--no-isolation`: run in the current checkout, which must be clean. Default `true`. */
  readonly isolation?: boolean | undefined;
  /** `--base <branch>`. */
  readonly base?: string | undefined;
  /** `--merge <strategy>`: overrides `execution.merge_strategy`. */
  readonly mergeStrategy?: LandingStrategy | undefined;
  /** `--timeout <seconds>`: the coder's wall-clock limit per attempt. */
  readonly timeoutSeconds?: number | undefined;
  /** `--max-cost <usd>`: the job's cap in dollars; overrides `execution.max_cost_usd`. */
  readonly maxCostUsd?: number | undefined;
  /** `--max-tokens <n>`: the job's cap in tokens; overrides `execution.max_tokens`. */
  readonly maxTokens?: number | undefined;
}

/**
 * The decisions a run takes before a job exists, each with its source; computing them refuses every bad
 * input the run would. `runTask` starts from these; a plan adds what needs a probe.
 */
export interface TaskDecisions {
  /** The task with every secret snodo holds masked: what the audit log, commits and branch names see. */
  readonly task: string;
  readonly repositoryRoot: string;
  readonly protocol: {
    /** Absolute path of `.snodo/protocol.yml`. */
    readonly path: string;
    readonly id: string;
    readonly warnings: readonly ProtocolIssue[];
  };
  /** The mode, or under `classifier` the mode that stands in for the classifier's answer. */
  readonly mode: ModeChoice;
  /** The coder and the model of every role in that mode. */
  readonly selection: Selection;
  /** The model the classifier asks when several modes can execute (chosen before a mode exists). */
  readonly classifierModel: string | undefined;
  readonly gates: {
    readonly preExecute: readonly ProtocolValidator[];
    readonly postExecute: readonly ProtocolValidator[];
    readonly constraints: readonly ProtocolConstraint[];
  };
  readonly policy: DisagreementPolicy;
  /** `flag` (`--merge`), `protocol` (the file sets it) or `default`. */
  readonly merge: Sourced<LandingStrategy>;
  /** `repository`: a workspace repository under `directory`; `none`: the current checkout. */
  readonly isolation: { readonly mode: 'repository' | 'none'; readonly directory: string };
  /** The sandbox setting, and whether bubblewrap works here. */
  readonly sandbox: { readonly setting: SandboxSetting; readonly availability: SandboxAvailability };
  /** The coder's limit per attempt, in seconds. */
  readonly coderTimeout: Sourced<number>;
  readonly maxFixAttempts: number;
  /** The job's spending caps (a flag over the protocol), checked as usage arrives; empty when none. */
  readonly budget: JobBudget;
  /**
   * The models the run needs and nothing configures, as the error `runTask` refuses it with before a job
   * exists; `undefined` when every needed model is there.
   */
  readonly missingModels: ModelRequiredError | undefined;
  /**
   * The first model the run would call without a key (`LLM_CREDENTIALS_MISSING`), refused like a missing
   * model; `undefined` when every provider it calls has one (or needs none).
   */
  readonly missingCredentials: LlmCredentialsMissingError | undefined;
}

/**
 * Everything `snodo run --dry-run` prints (SPEC §2): the decisions, whether the coder is ready, and the base
 * branch and commit the job would start from.
 */
export interface TaskPlan extends TaskDecisions {
  readonly coderStatus: CoderStatus;
  readonly base: ResolvedBaseBranch;
  /** Whether the run would start: not when a model is missing or the coder cannot run (`runTask` refuses). */
  readonly readiness: TaskReadiness;
}
