export {
  createOpencodeCoder,
  OpencodeCoder,
  type OpencodeCoderSettings,
  type OpencodePreparation,
} from './opencode-adapter.js';
export { type OpencodeRuntimeKind, opencodeConfigSchema } from './opencode-config.js';
export type { OpencodeModel } from './opencode-model.js';
export { UNATTENDED_PERMISSIONS } from './opencode-server-environment.js';
export { OpencodeServerVersionError } from './opencode-server-version-error.js';
export { opencodeRegistration } from './registration.js';
export { SUPPORTED_OPENCODE_VERSIONS, VERIFIED_OPENCODE_VERSION, VERSION } from './version.js';
