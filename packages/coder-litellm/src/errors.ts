import type { SnodoErrorCodeOf } from '@snodo/coder-sdk';
import type { CoderModelProviderMismatchError } from './errors/coder-model-provider-mismatch-error.js';
import type { CoderModelRequiredError } from './errors/coder-model-required-error.js';
import type { CoderOutputTruncatedError } from './errors/coder-output-truncated-error.js';
import type { CoderSubmissionMissingError } from './errors/coder-submission-missing-error.js';
import type { CoderTurnBudgetExhaustedError } from './errors/coder-turn-budget-exhausted-error.js';

/**
 * Every error code the direct LLM coders throw beyond the SDK's (a refused proposal is the SDK's
 * `PROPOSAL_PATH_REFUSED`). They reach the CLI as a failed job's `error.code`, so its exit map covers them.
 */
export type CoderLitellmErrorCode = SnodoErrorCodeOf<
  | typeof CoderModelProviderMismatchError
  | typeof CoderModelRequiredError
  | typeof CoderOutputTruncatedError
  | typeof CoderSubmissionMissingError
  | typeof CoderTurnBudgetExhaustedError
>;
