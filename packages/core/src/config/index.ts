export { ConfigKeyError } from '../errors.js';
export { ConfigInvalidError } from './config-invalid-error.js';
export { type ConfigKey, listConfigKeys, parseConfigValue, resolveConfigKey } from './config-keys.js';
export {
  type CoderConfig,
  coderSettingsSchema,
  LEGACY_CONFIG_KEYS,
  LLM_ROLES,
  type LlmRole,
  type LlmRoleSettings,
  llmRoleSettingsSchema,
  type ModelPriceConfig,
  modelPriceSchema,
  type ProviderConfig,
  providerSettingsSchema,
  type SnodoConfig,
  snodoConfigSchema,
} from './config-schema.js';
export { ConfigStore, type ConfigView, type ProviderKeyOptions } from './config-store.js';
export { detectProviderKeys } from './detect-provider-keys.js';
export { type LoadedConfig, type LoadedConfigSource, loadConfigFile } from './load-config.js';
export {
  isSecretConfigValue,
  maskConfigSecrets,
  maskConfigValue,
  maskSecret,
} from './mask-secrets.js';
export { type ParsedConfig, parseConfig } from './parse-config.js';
export { writeConfigText } from './save-config.js';
export {
  CONFIG_FILE_NAME,
  configFilePath,
  type EnvironmentVariables,
  expandTilde,
  resolveSnodoHome,
  type SnodoHomeOptions,
  worktreesDirectory,
} from './snodo-home.js';
