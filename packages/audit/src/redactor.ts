import { AuditOptionsError } from './errors/audit-options-error.js';

/** What a masked value is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Key names whose values are always masked, compared after lower-casing and dropping everything but
 * letters and digits, as suffixes: `api_key`, `apiKey`, `OPENAI_API_KEY`, `x-api-key` all end in `apikey`.
 * Plural forms such as `inputTokens` (token counts) are deliberately not matched.
 */
export const SECRET_KEY_SUFFIXES: readonly string[] = [
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
  'credential',
  'credentials',
  'sessionid',
  'bearer',
];

/** The shortest secret value the redactor accepts; shorter ones would mask ordinary words. */
export const MIN_SECRET_LENGTH = 4;

/**
 * Masks secrets in audit data before it is hashed, so a secret never reaches the file. Two rules:
 * a value under a secret-looking key (see `SECRET_KEY_SUFFIXES`, plus any given) is masked whole; a
 * registered secret value (an API key snodo injected into a coder's environment) is masked wherever it
 * appears inside a string or key — raw, base64 (standard and url-safe, at every byte alignment, so it is
 * also found inside a larger encoded string such as `Basic <base64 of user:key>`) and URL-encoded.
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  readonly #keySuffixes: readonly string[];
  #pattern: RegExp | undefined;

  constructor(options: { secrets?: readonly string[]; secretKeys?: readonly string[] } = {}) {
    this.#keySuffixes = [...SECRET_KEY_SUFFIXES, ...(options.secretKeys ?? []).map(normalizeKey)];
    for (const [index, secret] of (options.secrets ?? []).entries())
      this.addSecret(secret, `secrets[${index}]`);
  }

  /** Registers one more secret value; every later event is masked for it. */
  addSecret(secret: string, option = 'secret'): void {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) {
      throw new AuditOptionsError({
        option,
        problem: `a secret must be a string of at least ${MIN_SECRET_LENGTH} characters`,
        fix: 'Register the full credential value, not a fragment.',
      });
    }
    if (this.#secrets.has(secret)) return;
    this.#secrets.add(secret);
    this.#pattern = undefined;
  }

  /** `true` when values under `key` are always masked. */
  isSecretKey(key: string): boolean {
    const normalized = normalizeKey(key);
    return normalized !== '' && this.#keySuffixes.some((suffix) => normalized.endsWith(suffix));
  }

  /** `text` with every form of every registered secret replaced by `[REDACTED]`. */
  redactString(text: string): string {
    if (this.#secrets.size === 0) return text;
    this.#pattern ??= buildPattern(this.#secrets);
    this.#pattern.lastIndex = 0;
    return this.#pattern.test(text) ? text.replace(this.#pattern, REDACTED) : text;
  }
}

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** One regular expression matching every form of every secret, longest first. */
function buildPattern(secrets: ReadonlySet<string>): RegExp {
  const forms = new Set<string>();
  for (const secret of secrets) {
    for (const form of secretForms(secret)) forms.add(form);
  }
  const sorted = [...forms].sort((left, right) => right.length - left.length);
  return new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
}

/** The textual forms a secret leaks in: raw, URL-encoded, and base64 at each of the three alignments. */
function secretForms(secret: string): string[] {
  const forms = [secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+')];
  const bytes = Buffer.from(secret, 'utf8');
  for (let shift = 0; shift < 3; shift++) {
    // Encode the secret behind `shift` filler bytes and keep only the characters determined by the
    // secret's own bits: those appear verbatim in any base64 text containing the secret at that alignment.
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const first = Math.ceil((shift * 8) / 6);
    const last = Math.floor(((shift + bytes.length) * 8) / 6);
    const core = encoded.slice(first, last);
    if (core.length >= MIN_SECRET_LENGTH) forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  // The whole padded encoding too, so a standalone base64 value is masked with its padding.
  forms.push(bytes.toString('base64'), bytes.toString('base64url'));
  return forms.filter((form) => form.length >= MIN_SECRET_LENGTH);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
