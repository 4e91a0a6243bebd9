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

/** An environment variable name that says it holds a secret (`*_API_KEY`, `*_TOKEN`, `*PASSWORD*`…). */
export function isSecretName(name: string): boolean {
  return /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i.test(name);
}

/**
 * A value shaped like a credential even under an innocent name: one long run of key characters with
 * both letters and digits, that is not a path or a URL.
 */
export function looksLikeSecret(value: string): boolean {
  return (
    value.length >= 20 &&
    /^[A-Za-z0-9_\-.+=/]+$/.test(value) &&
    /[0-9]/.test(value) &&
    /[A-Za-z]/.test(value) &&
    !value.startsWith('/') &&
    !value.startsWith('.')
  );
}

/**
 * Whether the value at a config path is a secret: `providers.<name>.api_key`, and `coders.<id>.env.<NAME>`
 * when the name or the value looks like a credential.
 */
export function isSecretConfigValue(path: readonly string[], value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (path.length === 3 && path[0] === 'providers' && path[2] === 'api_key') return true;
  if (path.length === 4 && path[0] === 'coders' && path[2] === 'env') {
    return isSecretName(path[3]!) || looksLikeSecret(value);
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
