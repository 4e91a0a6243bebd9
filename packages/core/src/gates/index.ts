export { classifyValidator, type ValidatorRoute } from './classify-validator.js';
export {
  type DetectedTestCommand,
  detectTestCommand,
  type TestCommandDetection,
} from './commands/detect-test-command.js';
export {
  type CommandGateOptions,
  DEFAULT_COMMAND_TIMEOUT_SECONDS,
  evaluateCommandGate,
} from './commands/evaluate-command-gate.js';
export type {
  GateCommandRequest,
  GateCommandResult,
  GateCommandRunner,
} from './commands/gate-command-runner.js';
export { type RunGateCommandOptions, runGateCommand } from './commands/run-gate-command.js';
export type { DiffContext, DiffFile, DiffFileStatus, DiffSymlink } from './constraints/diff-context.js';
export { evaluateBuiltInGuards, evaluateConstraint } from './constraints/evaluate-constraint.js';
export { createScopeMatcher, filesInScope } from './constraints/files-in-scope.js';
export { KNOWN_SECRETS_GUARD_ID, knownSecretsGuard } from './constraints/known-secrets-guard.js';
export { type LoadDiffContextOptions, loadDiffContext } from './constraints/load-diff-context.js';
export {
  DEFAULT_SECRET_PATTERNS,
  maskSecretMatch,
  noSecretsInDiff,
} from './constraints/no-secrets-in-diff.js';
export { type AddedLine, parseAddedLines } from './constraints/parse-added-lines.js';
export type { Predicate, PredicateContext, PredicateResult } from './constraints/predicate.js';
export {
  BUILT_IN_PREDICATE_NAMES,
  createPredicateRegistry,
  type PredicateRegistry,
} from './constraints/predicate-registry.js';
export {
  isSnodoPath,
  SNODO_MUTATION_GUARD_ID,
  snodoMutationGuard,
} from './constraints/snodo-mutation-guard.js';
export { expectedTestPath, testsExistForModified } from './constraints/tests-exist-for-modified.js';
export { SYMLINK_GUARD_ID, workspaceSymlinkGuard } from './constraints/workspace-symlink-guard.js';
export type { GateConstraintSpec } from './gate-constraint-spec.js';
export type { GateModeProfile } from './gate-mode-profile.js';
export { DEFAULT_EVALUATION_PHASE, type GatePhase } from './gate-phase.js';
export type { GateValidatorSpec, GateValidatorTooling } from './gate-validator-spec.js';
export type { GateFinding, GateKind, GateUsage, GateVerdict, GateVerdictCause } from './gate-verdict.js';
export {
  buildJudgePrompt,
  JUDGE_TYPES,
  type JudgePrompt,
  type JudgePromptInput,
  judgeRole,
} from './judges/build-judge-prompt.js';
export {
  buildProtocolAdherencePrompt,
  type ProtocolAdherencePromptInput,
} from './judges/build-protocol-adherence-prompt.js';
export { evaluateJudgeGate, type JudgeGateOptions } from './judges/evaluate-judge-gate.js';
export type { GateJudgeFunction, GateJudgeRequest, GateJudgeResponse } from './judges/gate-judge-function.js';
export { DEFAULT_MAX_DIFF_CHARS } from './judges/judge-change-sections.js';
export { applySeverityCap } from './policy/apply-severity-cap.js';
export {
  assessRecoverability,
  isRecoverable,
  type Recoverability,
  type RecoverabilityOptions,
} from './policy/assess-recoverability.js';
export {
  DEFAULT_QUORUM_THRESHOLD,
  type DisagreementPolicy,
  type EvaluatePolicyOptions,
  evaluatePolicy,
  type HaltReason,
  type PolicyAction,
  type PolicyDecision,
  type SeverityCounts,
} from './policy/evaluate-policy.js';
export { formatFindingsForCoder } from './policy/format-findings-for-coder.js';
export {
  DEFAULT_GATE_CONCURRENCY,
  type GateRunContext,
  type RunGatePhaseOptions,
  runGatePhase,
} from './run-gate-phase.js';
export { compareSeverity, isSeverity, SEVERITIES, type Severity } from './severity.js';
