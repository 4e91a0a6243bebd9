/**
 * The one rule for names that say "my value is a secret", used for audit event keys, config keys and
 * environment variable names alike. A name is compared after lower-casing and dropping everything but
 * letters and digits, by its ending: `api_key`, `apiKey`, `OPENAI_API_KEY` and `x-api-key` all end in
 * `apikey`. Plural forms such as `inputTokens` (token counts) are deliberately not matched.
 *
 * `credential` and `credentials` are not on the list: in snodo they name where credentials come from (a
 * coder's `credentials.envVars` lists variable *names*, availability's `credentials` says `environment` or
 * `missing`, the audit's `coder-resolve` records `credentials: none`), never a value, and masking them hid
 * what the record is for. A real credential under such a name is still caught by what it is (`secret`,
 * `token`, `password` inside it) and by its value (`SecretMatcher`, `SECRET_PATTERNS`).
 */
export const SECRET_NAME_SUFFIXES: readonly string[] = [
  'apikey',
  'token',
  'password',
  'passwd',
  'passphrase',
  'secret',
  'authorization',
  'cookie',
  'cookies',
  'privatekey',
  'accesskey',
  'secretkey',
  'sessionid',
  'bearer',
];

/** A name as the rule compares it: lower case, letters and digits only (`X-Api-Key` → `xapikey`). */
export function normalizeSecretName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * `true` when `name` says its value is a secret: it ends in one of `SECRET_NAME_SUFFIXES`, or in one of
 * `extraSuffixes` (already normalised, e.g. `license` for a caller that also hides licence keys).
 */
export function isSecretName(name: string, extraSuffixes: readonly string[] = []): boolean {
  const normalized = normalizeSecretName(name);
  if (normalized === '') return false;
  return (
    SECRET_NAME_SUFFIXES.some((suffix) => normalized.endsWith(suffix)) ||
    extraSuffixes.some((suffix) => suffix !== '' && normalized.endsWith(suffix))
  );
}
