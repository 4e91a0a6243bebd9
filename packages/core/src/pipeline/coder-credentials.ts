import type { CoderAdapterV1 } from '@snodo/coder-sdk';
import {
  configuredProviderName,
  parseModelString,
  providerOfConfigEntry,
  resolveCredentials,
} from '@snodo/llm';
import type { SnodoConfig } from '../config/index.js';

/** Where the key handed to a coder was found, never the value. */
export type CoderCredentialOrigin =
  /** `providers.<provider>.api_key` in `$SNODO_HOME/config.yml`, stored by `snodo config add <provider>`. */
  | {
      readonly kind: 'config';
      readonly provider: string;
      /** The variable it is handed over as; absent for a coder that reads `providers` itself. */
      readonly variable?: string;
    }
  /** An environment variable of snodo's own environment. */
  | { readonly kind: 'environment'; readonly variable: string };

/** A coder's credential as found, and the variables to inject into its environment. */
export interface CoderCredentialLookup {
  /** Variables to add to the coder's environment (its key under its own variable name). */
  readonly variables: Readonly<Record<string, string>>;
  /** Where the key came from, for `state.json`, `snodo coders` and the audit log (never the value). */
  readonly source: 'config' | 'environment' | 'none';
  /** The config entry or environment variable it came from, when one was found. */
  readonly origin?: CoderCredentialOrigin;
}

type Environment = Readonly<Record<string, string | undefined>>;

const NONE: CoderCredentialLookup = { variables: {}, source: 'none' };

function fromConfig(provider: string, variable: string, key: string): CoderCredentialLookup {
  return {
    variables: { [variable]: key },
    source: 'config',
    origin: { kind: 'config', provider, variable },
  };
}

function fromEnvironment(variable: string, value: string, injectedAs = variable): CoderCredentialLookup {
  return {
    variables: { [injectedAs]: value },
    source: 'environment',
    origin: { kind: 'environment', variable },
  };
}

/**
 * The provider whose key `snodo config add <provider>` stored under a name the coder reads: the provider's
 * default variables (as @snodo/llm knows them, `<provider>` → `<PROVIDER>_API_KEY`) include it.
 */
function configuredProviderFor(
  variable: string,
  config: SnodoConfig,
): { name: string; key: string } | undefined {
  for (const [name, settings] of Object.entries(config.providers ?? {})) {
    const key = settings.api_key?.trim();
    if (!key) continue;
    const provider = providerOfConfigEntry(name);
    if (resolveCredentials(provider, { providers: {}, env: {} }).envVars.includes(variable))
      return { name, key };
  }
  return undefined;
}

/** The variable, among those the coder declares, that carries the key of the coder model's provider. */
function variableOfModel(adapter: CoderAdapterV1, model: string | undefined): string | undefined {
  if (model === undefined) return undefined;
  const prefix = adapter.modelPrefix;
  const bare = prefix !== undefined && model.startsWith(prefix) ? model.slice(prefix.length) : model;
  try {
    const { provider } = parseModelString(bare);
    const variables = resolveCredentials(provider, { providers: {}, env: {} }).envVars;
    return adapter.credentials.envVars.find((name) => variables.includes(name));
  } catch {
    return undefined;
  }
}

/**
 * Looks up the credential a coder declares, and only that one: every other secret stays out of its
 * environment.
 *
 * A coder with a `configKey` (one provider) gets a key stored with `snodo config add <configKey>` first,
 * then the provider's configured `api_key_env`, then its own variables in the environment. A coder that
 * declares several providers' variables without a `configKey` (a CLI that reads whichever provider its
 * model names) gets the variable of its model's provider when the model names one
 * (`<prefix>/<provider>/<model>` → that provider's variable), else the first declared variable that is set;
 * for each, a key stored in config for that provider wins over the environment, so
 * `snodo config add <provider>` reaches it without exporting anything.
 */
export function lookUpCoderCredentials(
  adapter: CoderAdapterV1,
  config: SnodoConfig,
  env: Environment,
  model?: string,
): CoderCredentialLookup {
  const listed = config.coders?.[adapter.id]?.credentials;
  if (Array.isArray(listed) && listed.length > 0) return listedCredentials(adapter.id, listed, config, env);
  const declared = adapter.credentials.envVars;
  const [primary] = declared;
  if (primary === undefined) return NONE;
  const configKey = adapter.credentials.configKey;
  if (configKey !== undefined) {
    // The name it is stored under, which @snodo/llm may alias (a provider's other common name).
    const alias = configuredProviderName(configKey, config.providers) ?? configKey;
    const provider = config.providers?.[alias];
    const stored = provider?.api_key?.trim();
    if (stored) return fromConfig(alias, primary, stored);
    const configuredVariable = provider?.api_key_env;
    const fromConfiguredVariable = configuredVariable ? env[configuredVariable] : undefined;
    if (configuredVariable && fromConfiguredVariable)
      return fromEnvironment(configuredVariable, fromConfiguredVariable, primary);
  }
  // The run's coder model, else the coder's own from config (`coders.<id>.model`).
  const preferred = variableOfModel(adapter, model ?? config.coders?.[adapter.id]?.model);
  const order =
    preferred === undefined ? declared : [preferred, ...declared.filter((name) => name !== preferred)];
  for (const name of order) {
    const stored = configKey === undefined ? configuredProviderFor(name, config) : undefined;
    if (stored !== undefined) return fromConfig(stored.name, name, stored.key);
    const value = env[name];
    if (value) return fromEnvironment(name, value);
  }
  return NONE;
}

/**
 * `coders.<id>.credentials: [A, B]` of a command-template coder: every listed variable that is set in
 * snodo's environment reaches the command (a program may need a key and a second secret), and the first
 * name is also fed from the key stored with `snodo config add <id>`. The source named is the first found.
 */
function listedCredentials(
  coderId: string,
  listed: readonly string[],
  config: SnodoConfig,
  env: Environment,
): CoderCredentialLookup {
  const variables: Record<string, string> = {};
  let first: CoderCredentialLookup | undefined;
  const stored = config.providers?.[coderId]?.api_key?.trim();
  listed.forEach((name, index) => {
    const found =
      index === 0 && stored
        ? fromConfig(coderId, name, stored)
        : env[name]
          ? fromEnvironment(name, env[name])
          : undefined;
    if (found === undefined) return;
    Object.assign(variables, found.variables);
    first ??= found;
  });
  return first === undefined ? NONE : { ...first, variables };
}

/**
 * For coders that call a model themselves (their coding model decides the provider): the key of that
 * model's provider, when it is in the environment, under the provider's own variable. A key stored in
 * config reaches such a coder through its `providers` settings instead.
 */
export function lookUpModelCredentials(
  model: string | undefined,
  config: SnodoConfig,
  env: Environment,
): CoderCredentialLookup {
  if (model === undefined) return NONE;
  try {
    const { provider } = parseModelString(model);
    const found = resolveCredentials(provider, { providers: config.providers, env });
    if (found.source === 'environment' && found.envVar && env[found.envVar]) {
      return fromEnvironment(found.envVar, env[found.envVar] as string);
    }
    if (found.source === 'config') {
      return { variables: {}, source: 'config', origin: { kind: 'config', provider } };
    }
    return NONE;
  } catch {
    // A model string the llm package cannot read: the coder reports it with its own message.
    return NONE;
  }
}
