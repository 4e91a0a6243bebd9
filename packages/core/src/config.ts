// @snodo/core/config: the user's config file (`$SNODO_HOME/config.yml`) on its own — read, set, unset,
// show with secrets masked, the keys it accepts — for `snodo config …`, without loading the pipeline, the
// protocol, the coder registry, the audit log or the AI SDK. The main entry exports the same.

/** Every key `snodo config set` accepts, record names as placeholders (`providers.<provider>.api_key`). */
export { listConfigKeys } from './config/config-keys.js';
export type { SnodoConfig } from './config/config-schema.js';
/** The config file: read, set, unset, with secrets masked on show. */
export { ConfigStore, type ConfigView, type ProviderKeyOptions } from './config/config-store.js';
/** Provider keys found in the environment, names only. */
export { detectProviderKeys } from './config/detect-provider-keys.js';
