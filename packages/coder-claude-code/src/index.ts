export { createClaudeCodeCoder } from './claude-code-adapter.js';
export { CLAUDE_CODE_ALLOWED_TOOLS, CLAUDE_CODE_DISALLOWED_TOOLS } from './claude-code-argv.js';
export {
  type ClaudeCodeInitEvent,
  type ClaudeCodeModelUsage,
  type ClaudeCodeResultEvent,
  type ClaudeCodeUsage,
  claudeCodeInitEventSchema,
  claudeCodeModelUsageSchema,
  claudeCodeResultEventSchema,
  claudeCodeUsageSchema,
} from './claude-code-output.js';
export type { ClaudeCodeCoderSettings, ClaudeCodeRunConfig } from './claude-code-settings.js';
export { claudeCodeRegistration } from './registration.js';
export { CLAUDE_CODE_SUPPORTED_VERSIONS, VERSION } from './version.js';
