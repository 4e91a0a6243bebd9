import { isSecretName, looksLikeSecret } from '@snodo/foundation';
import type { SnodoConfig } from './config-schema.js';

/** Secrets shorter than this are fully masked: showing 8 of their characters would give most away. */
const SHORTEST_PARTLY_SHOWN = 16;

/**
 * `abcd…wxyz` for a secret of 16 characters or more (enough to tell two keys apart), `********` for a
 * shorter one. Used by `snodo config show` and `get`.
 */
export function maskSecret(value: string): string {
  if (value.length < SHORTEST_PARTLY_SHOWN) return '********';
  return `${value.slice(0, 4)}…${value.slice(-4)}`;
}

/**
 * What an environment variable set for a coder in config (`coders.<id>.env.<NAME>`) may also end in to be
 * masked, on top of the foundation's one secret-name rule: such a variable exists to hand the coder a value,
 * so `*_KEY`, `*_AUTH` and `*_CREDENTIALS` are taken as secrets there, where an audit event's `credentials`
 * field (a list of variable names) is not.
 */
const CODER_ENV_SECRET_SUFFIXES: readonly string[] = ['key', 'auth', 'credential', 'credentials'];

/**
 * Whether the value at a config path is a secret: `providers.<name>.api_key`, `coders.<id>.password`, and
 * `coders.<id>.env.<NAME>` when the name or the value looks like a credential.
 */
export function isSecretConfigValue(path: readonly string[], value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (path.length === 3 && path[0] === 'providers' && path[2] === 'api_key') return true;
  if (path.length === 3 && path[0] === 'coders' && path[2] === 'password') return true;
  // A queue URL with a password in it (redis://:pw@host, postgres://user:pw@host) is a credential.
  if (path.length === 2 && path[0] === 'queue' && path[1] === 'url') {
    return URL.canParse(value) && new URL(value).password !== '';
  }
  if (path.length === 4 && path[0] === 'coders' && path[2] === 'env') {
    return isSecretName(path[3]!, CODER_ENV_SECRET_SUFFIXES) || looksLikeSecret(value);
  }
  return false;
}

/** `value` (a config section or leaf at `path`) with every secret inside it masked; a deep copy. */
export function maskConfigValue(path: readonly string[], value: unknown): unknown {
  if (isSecretConfigValue(path, value)) return maskSecret(value as string);
  if (Array.isArray(value))
    return value.map((item, index) => maskConfigValue([...path, String(index)], item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, maskConfigValue([...path, key], child)]),
    );
  }
  return value;
}

/** A copy of the config with every secret masked, safe to print (`snodo config show`). */
export function maskConfigSecrets(config: SnodoConfig): SnodoConfig {
  return maskConfigValue([], config) as SnodoConfig;
}
