import { Document, isMap } from 'yaml';
import { ConfigKeyError } from '../errors.js';
import type { SourceIssue } from '../protocol/source-issue.js';
import { listConfigKeys, parseConfigValue, resolveConfigKey } from './config-keys.js';
import type { SnodoConfig } from './config-schema.js';
import { type LoadedConfig, loadConfigFile } from './load-config.js';
import { maskConfigSecrets, maskConfigValue } from './mask-secrets.js';
import { parseConfig } from './parse-config.js';
import { writeConfigText } from './save-config.js';
import { configFilePath, resolveSnodoHome, type SnodoHomeOptions } from './snodo-home.js';

/** What `snodo config show` prints. */
export interface ConfigView {
  /** The config file. */
  readonly path: string;
  /** Whether it exists. */
  readonly exists: boolean;
  /** The config with every secret masked. */
  readonly config: SnodoConfig;
  /** Unknown and legacy keys, loose file permissions. */
  readonly warnings: readonly SourceIssue[];
}

/** Extra settings `addProviderKey` may store with the key. */
export interface ProviderKeyOptions {
  /** `providers.<name>.api_key_env`. */
  readonly apiKeyEnv?: string | undefined;
  /** `providers.<name>.base_url`. */
  readonly baseUrl?: string | undefined;
}

/**
 * `$SNODO_HOME/config.yml` and the operations `snodo config` runs on it. Every edit reads the file, changes
 * the YAML document in place (the user's comments and key order survive), validates the whole result
 * against the schema, and writes it atomically with mode 0600. A broken file is never overwritten: the
 * edit throws `ConfigInvalidError` and the user fixes the file first.
 */
export class ConfigStore {
  /** `$SNODO_HOME`. */
  readonly home: string;

  constructor(options: { readonly home: string }) {
    this.home = options.home;
  }

  /** A store for the `$SNODO_HOME` that `env` and `homedir` resolve to. */
  static fromEnvironment(options: SnodoHomeOptions): ConfigStore {
    return new ConfigStore({ home: resolveSnodoHome(options) });
  }

  /** `$SNODO_HOME/config.yml` (`snodo config path`). */
  configPath(): string {
    return configFilePath(this.home);
  }

  /** The config (the empty config when the file does not exist) and its warnings. */
  load(): LoadedConfig {
    const { path, exists, config, warnings } = loadConfigFile(this.configPath());
    return { path, exists, config, warnings };
  }

  /** Replaces the whole file with `config` (validated first). Comments in the old file are lost. */
  save(config: SnodoConfig): void {
    const path = this.configPath();
    const text = new Document(config).toString();
    parseConfig(text, { fileName: path });
    writeConfigText(path, text);
  }

  /** The config with secrets masked (`snodo config show`). */
  showConfig(): ConfigView {
    const loaded = this.load();
    return { ...loaded, config: maskConfigSecrets(loaded.config) };
  }

  /** Stores a provider's API key (`snodo config add <provider> <key>`), and optionally its variable and URL. */
  addProviderKey(provider: string, key: string, options: ProviderKeyOptions = {}): void {
    const name = provider.trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
      throw new ConfigKeyError({
        key: `providers.${provider}`,
        problem: 'a provider name holds letters, digits, `.`, `_` and `-` (for example `openrouter`)',
        validKeys: listConfigKeys(),
      });
    }
    const trimmedKey = key.trim();
    if (trimmedKey === '') {
      throw new ConfigKeyError({
        key: `providers.${name}.api_key`,
        problem: 'the key is empty',
        validKeys: listConfigKeys(),
      });
    }
    this.edit((document) => {
      document.setIn(['providers', name, 'api_key'], trimmedKey);
      if (options.apiKeyEnv !== undefined)
        document.setIn(['providers', name, 'api_key_env'], options.apiKeyEnv);
      if (options.baseUrl !== undefined) document.setIn(['providers', name, 'base_url'], options.baseUrl);
    });
  }

  /** Removes `providers.<name>` (`snodo config remove <provider>`); `false` when there was none. */
  removeProvider(provider: string): boolean {
    const { config } = this.load();
    if (config.providers?.[provider] === undefined) return false;
    this.edit((document) => {
      document.deleteIn(['providers', provider]);
      const providers = document.getIn(['providers'], true);
      if (isMap(providers) && providers.items.length === 0) document.deleteIn(['providers']);
    });
    return true;
  }

  /**
   * Sets one value (`snodo config set <key> <value>`). The key is checked against the schema (unknown →
   * `ConfigKeyError` listing the valid keys) and the text is read as that key's type.
   */
  setConfigValue(dottedKey: string, value: string): void {
    const configKey = resolveConfigKey(dottedKey);
    const parsed = parseConfigValue(configKey, value);
    this.edit((document) => document.setIn([...configKey.path], parsed));
  }

  /** Removes one value or section (`snodo config unset <key>`); `false` when it was not set. */
  unsetConfigValue(dottedKey: string): boolean {
    const configKey = resolveConfigKey(dottedKey);
    if (this.valueAt(configKey.path) === undefined) return false;
    this.edit((document) => document.deleteIn([...configKey.path]));
    return true;
  }

  /**
   * The value or section at a key (`snodo config get <key>`), `undefined` when unset. Secrets are masked
   * unless `reveal` is set.
   */
  getConfigValue(dottedKey: string, options: { readonly reveal?: boolean } = {}): unknown {
    const configKey = resolveConfigKey(dottedKey);
    const value = this.valueAt(configKey.path);
    if (value === undefined || options.reveal === true) return value;
    return maskConfigValue(configKey.path, value);
  }

  private valueAt(path: readonly string[]): unknown {
    let current: unknown = this.load().config;
    for (const segment of path) {
      if (current === null || typeof current !== 'object') return undefined;
      current = (current as Record<string, unknown>)[segment];
    }
    return current;
  }

  /** Reads the document (refusing a broken file), applies `change`, validates the result, writes it. */
  private edit(change: (document: Document) => void): void {
    const path = this.configPath();
    const loaded = loadConfigFile(path);
    const document: Document = loaded.parsed?.source.document ?? new Document({});
    if (document.contents === null) document.contents = document.createNode({});
    change(document);
    const text = document.toString();
    // Validates what will be written, with positions, so a bad edit never reaches the disk.
    parseConfig(text, { fileName: path });
    writeConfigText(path, text);
  }
}
