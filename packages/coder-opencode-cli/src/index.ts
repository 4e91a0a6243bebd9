export { createOpencodeCliCoder, OpencodeCliCoder } from './opencode-cli-adapter.js';
export {
  type OpencodeRunEvent,
  type OpencodeStepTokens,
  opencodeRunEventSchema,
} from './opencode-cli-output.js';
export type { OpencodeCliCoderConfig, OpencodeCliCoderSettings } from './opencode-cli-settings.js';
export { opencodeCliRegistration } from './registration.js';
export { OPENCODE_CLI_SUPPORTED_VERSIONS, VERSION } from './version.js';
