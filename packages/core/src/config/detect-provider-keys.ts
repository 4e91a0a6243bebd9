import type { EnvironmentVariables } from './snodo-home.js';

/** Any variable named like an API key, when the caller passes no list of names. */
const API_KEY_PATTERN = /^[A-Z][A-Z0-9_]*_API_KEY$/;

/**
 * The names of provider key variables that are set (non-blank) in `env`: those in `names` when given (the
 * CLI passes the variables of the providers and coders it knows), else every `*_API_KEY` variable.
 * Returns names only, sorted, never values, so the result is safe to print and to log.
 */
export function detectProviderKeys(
  env: EnvironmentVariables,
  options: { readonly names?: readonly string[] | undefined } = {},
): string[] {
  const candidates = options.names ?? Object.keys(env).filter((name) => API_KEY_PATTERN.test(name));
  const set = candidates.filter((name) => {
    const value = env[name];
    return value !== undefined && value.trim() !== '';
  });
  return [...new Set(set)].sort();
}
