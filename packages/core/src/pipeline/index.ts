export { CoderContractViolationError, ModeCannotChangeCodeError, ModeUnknownError } from '../errors.js';
export { type CoderCredentialLookup, lookUpCoderCredentials } from './coder-credentials.js';
export type { JobEnding } from './job-ending.js';
export { findMainCheckout, loadRunContext, type RunContext } from './run-context.js';
export type { RunEvent, RunStage } from './run-event.js';
export { type RunTaskHandle, runTask } from './run-task.js';
export type { CoderCatalog, RunTaskOptions } from './run-task-options.js';
export type { RunTaskResult } from './run-task-result.js';
export { ensureRuntimeExclusions, RUNTIME_EXCLUSIONS } from './runtime-exclusions.js';
export {
  type Classification,
  FLOW_TYPES,
  type FlowType,
  flowTypeFromKeywords,
} from './stage-classify.js';
export { taskCommitMessage } from './task-commit-message.js';
export { toMicroDollars, UsageLedger, type UsageReport } from './usage-ledger.js';
