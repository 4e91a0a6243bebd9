// The error root is the foundation's: adapter authors import it from here, with the SDK's own errors.
export { SnodoError, type SnodoErrorCodeOf, type SnodoErrorOptions } from '@snodo/foundation';
export {
  type BuildCoderEnvironmentOptions,
  buildCoderEnvironment,
  CODER_ENVIRONMENT_ALLOW_LIST,
} from './environment/build-coder-environment.js';
export { availabilityError } from './errors/availability-error.js';
export { CoderCliVersionUnsupportedError } from './errors/coder-cli-version-unsupported-error.js';
export { CoderConfigInvalidError } from './errors/coder-config-invalid-error.js';
export { CoderCredentialsMissingError } from './errors/coder-credentials-missing-error.js';
export { CoderFailedError } from './errors/coder-failed-error.js';
export { CoderNotInstalledError } from './errors/coder-not-installed-error.js';
export { CoderProviderFailedError } from './errors/coder-provider-failed-error.js';
export { CoderSpecificationUnsupportedError } from './errors/coder-specification-unsupported-error.js';
export { CoderTimeoutError } from './errors/coder-timeout-error.js';
export { CoderUnavailableError } from './errors/coder-unavailable-error.js';
export { GitCommandError } from './errors/git-command-error.js';
export { type GitMetadataChange, GitMetadataTamperedError } from './errors/git-metadata-tampered-error.js';
export { GitTimeoutInvalidError } from './errors/git-timeout-invalid-error.js';
export { ProposalPathRefusedError } from './errors/proposal-path-refused-error.js';
export { SnodoMutationError } from './errors/snodo-mutation-error.js';
export {
  CoderAbortedError,
  type CoderSdkErrorCode,
  CoderUnknownError,
  WorktreeNotCleanError,
} from './errors.js';
export { gitExecutable } from './git/git-executable.js';
export { type GitEnvironmentOptions, gitEnvironment, hardeningArguments } from './git/git-hardening.js';
export { type GitVersion, gitVersion } from './git/git-version.js';
export { type RunGitOptions, type RunGitResult, runGit, runGitSync } from './git/run-git.js';
export { parseCoderConfig } from './in-place/coder-settings.js';
export { coderStateDirectory } from './in-place/coder-state-directory.js';
export { ATTRIBUTION_LINE_PATTERNS } from './in-place/commit-message.js';
export {
  type FileState,
  listFilesRecursively,
  readFileState,
  sameFileState,
  writeFileState,
} from './in-place/file-state.js';
export {
  InPlaceCoderAdapter,
  type InPlaceCoderAdapterSettings,
  type InPlaceExecution,
  type InPlaceExecutionContext,
} from './in-place/in-place-coder-adapter.js';
export { DEFAULT_INSTRUCTIONS_FILE_NAME } from './in-place/instructions-file.js';
export { findExecutable } from './process/find-executable.js';
export { DEFAULT_FINAL_EVENT_GRACE_MS, DEFAULT_KILL_GRACE_MS } from './process/grace-defaults.js';
export { killTaggedProcesses, PROCESS_TAG_VARIABLE } from './process/kill-tagged-processes.js';
export {
  type ExecutableVersionProbe,
  type ProbeExecutableVersionOptions,
  probeExecutableVersion,
} from './process/probe-executable-version.js';
export { runSupervisedProcess } from './process/run-supervised-process.js';
export { startSupervisedProcess } from './process/start-supervised-process.js';
export { stripModelPrefix } from './process/strip-model-prefix.js';
export type {
  SupervisedProcess,
  SupervisedProcessOptions,
  SupervisedProcessOutcome,
  SupervisedStopReason,
} from './process/supervised-process.js';
export { buildCoderPrompt } from './prompt/build-coder-prompt.js';
export { buildInstructions, CODER_GROUND_RULES } from './prompt/build-instructions.js';
export type { CoderPromptFinding, CoderPromptInput } from './prompt/coder-prompt-input.js';
export { describeProviderStatus } from './provider/describe-provider-status.js';
export {
  describeProviderRetry,
  type ProviderEndpoint,
  type ProviderRetry,
  ProviderRetryLog,
} from './provider/provider-retry-log.js';
export { type ProbeSandboxOptions, probeSandbox, type SandboxProbe } from './sandbox/probe-sandbox.js';
export {
  findHidingMount,
  type SandboxCommand,
  type SandboxedCommand,
  wrapInSandbox,
} from './sandbox/wrap-in-sandbox.js';
export { LineSplitter } from './subprocess/line-splitter.js';
export { type ProviderRetries, ProviderRetryWatch } from './subprocess/provider-retries.js';
export { removeNoiseLines } from './subprocess/remove-noise-lines.js';
export { type Secret, SecretRedactor } from './subprocess/secret-redactor.js';
export {
  SubprocessCoderAdapter,
  type SubprocessCoderAdapterSettings,
} from './subprocess/subprocess-coder-adapter.js';
export type {
  SubprocessOutput,
  SubprocessParsedOutput,
  SubprocessPreparation,
  SubprocessRun,
  SubprocessRunPreparation,
} from './subprocess/subprocess-run.js';
export type {
  CoderAdapterV1,
  CoderRegistrationV1,
  CoderV1Availability,
  CoderV1AvailabilityOptions,
  CoderV1Credentials,
  CoderV1Event,
  CoderV1FileProposal,
  CoderV1Kind,
  CoderV1Request,
  CoderV1Result,
  CoderV1Sandbox,
  CoderV1SandboxMount,
  CoderV1Usage,
} from './v1/index.js';
export { assertCoderAdapterV1, isCoderAdapterV1 } from './v1/is-coder-adapter-v1.js';
export {
  compareVersions,
  describeVersionRange,
  isVersionInRange,
  type SupportedVersionRange,
} from './version/version-range.js';
