import type { CoderV1Availability } from '../v1/coder-v1-availability.js';
import type { CoderV1Credentials } from '../v1/coder-v1-credentials.js';

/**
 * Where a coder's credential stands in `env`: `not-needed` when it declares no variable, `environment`
 * when one of its variables is set (core injects stored keys into the environment too, so the two
 * sources look the same here), `cli-login` when none is set but the key is optional, else `missing`.
 */
export function evaluateCredentials(
  credentials: CoderV1Credentials,
  env: Readonly<Record<string, string | undefined>>,
): CoderV1Availability['credentials'] {
  if (credentials.envVars.length === 0) return 'not-needed';
  if (credentials.envVars.some((name) => (env[name] ?? '') !== '')) return 'environment';
  return credentials.optional === true ? 'cli-login' : 'missing';
}

/** The values of this coder's credential variables set in `env`, with their names, for redaction. */
export function credentialValues(
  credentials: CoderV1Credentials,
  env: Readonly<Record<string, string | undefined>>,
): { readonly name: string; readonly value: string }[] {
  return credentials.envVars
    .map((name) => ({ name, value: env[name] ?? '' }))
    .filter((entry) => entry.value !== '');
}

/** The fix for a missing credential, in the words of `snodo doctor`. */
export function credentialFix(credentials: CoderV1Credentials): string {
  const first = credentials.envVars[0] ?? 'the key variable';
  return credentials.configKey === undefined
    ? `export ${first}=<key>`
    : `snodo config add ${credentials.configKey} <key>   (or export ${first}=<key>)`;
}
