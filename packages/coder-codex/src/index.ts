export { createCodexCoder } from './codex-adapter.js';
export {
  type CodexErrorEvent,
  type CodexEvent,
  type CodexItemEvent,
  type CodexThreadStartedEvent,
  type CodexTurnCompletedEvent,
  type CodexTurnFailedEvent,
  type CodexUsage,
  codexErrorEventSchema,
  codexEventSchema,
  codexItemEventSchema,
  codexThreadStartedEventSchema,
  codexTurnCompletedEventSchema,
  codexTurnFailedEventSchema,
  codexUsageSchema,
} from './codex-output.js';
export { CODEX_STDERR_NOISE } from './codex-retries.js';
export type { CodexCoderSettings, CodexRunConfig } from './codex-settings.js';
export { codexRegistration } from './registration.js';
export { CODEX_SUPPORTED_VERSIONS, VERSION } from './version.js';
