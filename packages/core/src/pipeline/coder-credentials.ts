import type { CoderAdapterV1 } from '@snodo/coder-sdk';
import { parseModelString, resolveCredentials } from '@snodo/llm';
import type { SnodoConfig } from '../config/index.js';

/** A coder's credential as found, and the variables to inject into its environment. */
export interface CoderCredentialLookup {
  /** Variables to add to the coder's environment (its key under its own variable name). */
  readonly variables: Readonly<Record<string, string>>;
  /** Where the key came from, for `state.json`, `snodo coders` and the audit log (never the value). */
  readonly source: 'config' | 'environment' | 'none';
}

/**
 * Looks up the credential a coder declares: a key stored with `snodo config add <provider>` first, then
 * the provider's configured `api_key_env`, then the coder's own variables in the environment. Only this
 * coder's key is returned; every other secret stays out of its environment.
 */
export function lookUpCoderCredentials(
  adapter: CoderAdapterV1,
  config: SnodoConfig,
  env: Readonly<Record<string, string | undefined>>,
): CoderCredentialLookup {
  const [primary] = adapter.credentials.envVars;
  if (primary === undefined) return { variables: {}, source: 'none' };
  const provider = adapter.credentials.configKey
    ? config.providers?.[adapter.credentials.configKey]
    : undefined;
  if (provider?.api_key) return { variables: { [primary]: provider.api_key }, source: 'config' };
  const fromConfiguredVariable = provider?.api_key_env ? env[provider.api_key_env] : undefined;
  if (fromConfiguredVariable)
    return { variables: { [primary]: fromConfiguredVariable }, source: 'environment' };
  for (const name of adapter.credentials.envVars) {
    const value = env[name];
    if (value) return { variables: { [name]: value }, source: 'environment' };
  }
  return { variables: {}, source: 'none' };
}

/**
 * For coders that call a model themselves (their coding model decides the provider): the key of that
 * model's provider, when it is in the environment, under the provider's own variable. A key stored in
 * config reaches such a coder through its `providers` settings instead.
 */
export function lookUpModelCredentials(
  model: string | undefined,
  config: SnodoConfig,
  env: Readonly<Record<string, string | undefined>>,
): CoderCredentialLookup {
  if (model === undefined) return { variables: {}, source: 'none' };
  try {
    const { provider } = parseModelString(model);
    const found = resolveCredentials(provider, { providers: config.providers, env });
    if (found.source === 'environment' && found.envVar && env[found.envVar]) {
      return { variables: { [found.envVar]: env[found.envVar] as string }, source: 'environment' };
    }
    return { variables: {}, source: found.source === 'config' ? 'config' : 'none' };
  } catch {
    // A model string the llm package cannot read: the coder reports it with its own message.
    return { variables: {}, source: 'none' };
  }
}
