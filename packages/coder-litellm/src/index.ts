export { CoderModelProviderMismatchError } from './errors/coder-model-provider-mismatch-error.js';
export { CoderModelRequiredError } from './errors/coder-model-required-error.js';
export { CoderOutputTruncatedError } from './errors/coder-output-truncated-error.js';
export { CoderSubmissionMissingError } from './errors/coder-submission-missing-error.js';
export { CoderTurnBudgetExhaustedError } from './errors/coder-turn-budget-exhausted-error.js';
export type { CoderLitellmErrorCode } from './errors.js';
export {
  createLitellmCoder,
  createProviderPinnedCoder,
  type DirectCoderAvailabilityOptions,
  type PinnedCoderId,
} from './litellm-adapter.js';
export {
  DEFAULT_MAX_OUTPUT_TOKENS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_TOOL_TURNS,
  type LitellmCoderSettings,
} from './litellm-coder-settings.js';
export {
  LIST_FILES_LIMIT,
  MAX_READABLE_FILE_BYTES,
  READ_FILE_CHARACTER_LIMIT,
  READ_LINES_LIMIT,
} from './read-only-tools.js';
export {
  anthropicCoderRegistration,
  DIRECT_CODER_INSTALL_HINT,
  geminiCoderRegistration,
  litellmRegistration,
  litellmRegistrations,
  openaiCoderRegistration,
} from './registration.js';
export {
  SUBMIT_FILES_TOOL_NAME,
  type SubmitFilesInput,
  type SubmittedFile,
  submitFilesInputSchema,
} from './submit-files-tool.js';
export { VERSION } from './version.js';
