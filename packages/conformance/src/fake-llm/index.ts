export type { FakeLlmUsage, FinishReason, PlannedToolCall } from './assistant-reply.js';
export { DEFAULT_USAGE } from './assistant-reply.js';
export type {
  ConversationMessage,
  ConversationView,
  DeclaredTool,
  JsonSchema,
  ToolChoice,
} from './conversation-view.js';
export type { FakeLlmDialect } from './dialect.js';
export type { FakeLlmOperation } from './fake-llm-routes.js';
export type { FakeLlmTurn, FakeLlmUsageInput, ParsedFakeLlmTurn } from './fake-llm-script.js';
export { FakeLlmScript, fakeLlmTurnSchema } from './fake-llm-script.js';
export { FakeLlmScriptError } from './fake-llm-script-error.js';
export type { FakeLlm, FakeLlmOptions } from './fake-llm-server.js';
export { startFakeLlm } from './fake-llm-server.js';
export { MIN_CACHEABLE_TOKENS, type PromptCacheAccount } from './fake-prompt-cache.js';
export type { FileToWrite } from './file-write-commands.js';
export type { FakeLlmRecordedRequest } from './request-log.js';
export type { SideRequestRule } from './side-requests.js';
export { builtInSideRequestRules, sideRequestSchemaHints } from './side-requests.js';
export type { FileWriteContext, FileWriteMapping, FileWriteStrategy } from './tool-mapping.js';
export { fileWriteStrategies, mapFileWrites } from './tool-mapping.js';
export { workspaceDirectoryPatterns } from './workspace-directory.js';
