// The library side of the `snodo` package: what an embedder or a script reuses from the CLI. The command
// itself is the `snodo` binary (dist/cli.js).
export { builtInCoderRegistrations, builtInCoders } from './coders/built-in-coders.js';
export { auditVerifyRemoteJsonSchema } from './commands/audit/audit-verify-remote-json-schema.js';
export {
  EXIT_CODES,
  type ExitCode,
  exitCodeForError,
  exitCodeForErrorCode,
  exitCodeForResult,
  type ResultStatus,
} from './exit-codes.js';
/** Starts a `snodo run` detached from the caller (the MCP server's tool, `snodo run --background`). */
export type { BackgroundRunFlags } from './jobs/background-request.js';
export {
  type BackgroundRun,
  type BackgroundRunOptions,
  startBackgroundRun,
} from './jobs/start-background-run.js';
export {
  auditEventsJsonSchema,
  auditVerifyJsonSchema,
  dsseEnvelopeJsonSchema,
} from './json/audit-json-schemas.js';
export { coderStatusJsonSchema, codersJsonSchema } from './json/coder-status-json-schema.js';
export { dryRunPlanJsonSchema } from './json/dry-run-plan-json-schema.js';
export {
  configShowJsonSchema,
  doctorJsonSchema,
  initJsonSchema,
  modelsJsonSchema,
  protocolValidationJsonSchema,
} from './json/environment-json-schemas.js';
export {
  abandonResultJsonSchema,
  jobDetailsJsonSchema,
  jobDiffJsonSchema,
  jobStateJsonSchema,
  pruneResultsJsonSchema,
  taskListJsonSchema,
} from './json/job-json-schemas.js';
export {
  jobStatusJsonSchema,
  roleUsageJsonSchema,
  runResultJsonSchema,
  verdictJsonSchema,
} from './json/run-result-json-schema.js';
export { main } from './main.js';
export { VERSION } from './version.js';
