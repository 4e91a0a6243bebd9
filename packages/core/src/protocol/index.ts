export { ProtocolNotFoundError, ProtocolTemplateUnknownError } from '../errors.js';
export { closestMatch, didYouMean, editDistance } from './closest-match.js';
export { LEGACY_PROTOCOL_KEYS } from './legacy-usage.js';
export { type LoadProtocolOptions, loadProtocol } from './load-protocol.js';
export { type LoadedProtocol, type ParseProtocolOptions, parseProtocol } from './parse-protocol.js';
export { protocolCacheDirectory } from './protocol-cache.js';
export {
  constraintIdPattern,
  type ProtocolConstraint,
  protocolConstraintSchema,
  type Severity,
  severitySchema,
} from './protocol-constraint-schema.js';
export {
  LEGACY_EXECUTION_KEYS,
  type ProtocolExecution,
  protocolExecutionSchema,
} from './protocol-execution-schema.js';
export { ProtocolInvalidError, type ProtocolIssue } from './protocol-invalid-error.js';
export { type ProtocolMode, protocolModeSchema } from './protocol-mode-schema.js';
export { constraintsForMode, findMode, validatorsForMode } from './protocol-queries.js';
export {
  type DisagreementPolicy,
  disagreementPolicySchema,
  type Protocol,
  type ProtocolRole,
  protocolRoleSchema,
  protocolSchema,
} from './protocol-schema.js';
export {
  copyIntoWorkspaceSchema,
  DEFAULT_SETUP_TIMEOUT_SECONDS,
  type ProtocolCommand,
  type ProtocolSetup,
  protocolCommandSchema,
  protocolSetupSchema,
} from './protocol-setup-schema.js';
export {
  DEFAULT_PROTOCOL_TEMPLATE,
  isProtocolTemplateName,
  PROTOCOL_TEMPLATE_NAMES,
  type ProtocolTemplateName,
  protocolTemplates,
  renderProtocolTemplate,
} from './protocol-templates.js';
export {
  BUILT_IN_VALIDATOR_TYPES,
  type EvaluationPhase,
  evaluationPhaseSchema,
  type ProtocolValidator,
  protocolValidatorSchema,
  READ_ONLY_VALIDATOR_TOOLS,
  type ValidatorTooling,
  validatorToolingSchema,
} from './protocol-validator-schema.js';
export {
  countSourceIssues,
  type DocumentPath,
  formatDocumentPath,
  formatSourceIssue,
  formatSourceIssues,
  type PathIssue,
  type SourceIssue,
  sortSourceIssues,
} from './source-issue.js';
export { applyTemplateCommands, type TemplateCommands, yamlArgv } from './template-commands.js';
export { findUnknownKeys, type UnknownKey } from './unknown-keys.js';
export {
  checkWellFormedness,
  DEFAULT_KNOWN_PREDICATES,
  type WellFormednessOptions,
} from './well-formedness.js';
export { findNode, parseYamlSource, positionIssue, type YamlSource } from './yaml-source.js';
