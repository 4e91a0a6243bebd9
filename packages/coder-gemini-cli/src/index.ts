export { createGeminiCliCoder, GeminiCliCoder } from './gemini-cli-adapter.js';
export {
  type GeminiCliResultEvent,
  type GeminiCliStats,
  type GeminiCliStreamEvent,
  geminiCliStreamEventSchema,
} from './gemini-cli-output.js';
export { GEMINI_CLI_STDERR_NOISE } from './gemini-cli-retries.js';
export type { GeminiCliCoderConfig, GeminiCliCoderSettings } from './gemini-cli-settings.js';
export { geminiCliRegistration } from './registration.js';
export { GEMINI_CLI_SUPPORTED_VERSIONS, VERSION } from './version.js';
