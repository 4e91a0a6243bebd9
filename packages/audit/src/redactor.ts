import {
  isSecretName,
  MIN_SECRET_LENGTH,
  normalizeSecretName,
  SECRET_NAME_SUFFIXES,
  SecretMatcher,
} from '@snodo/foundation';
import { AuditOptionsError } from './errors.js';

/** What a masked value is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Key names whose values are always masked: the foundation's one rule for secret names (`isSecretName`),
 * compared after lower-casing and dropping everything but letters and digits, as suffixes.
 */
export const SECRET_KEY_SUFFIXES: readonly string[] = SECRET_NAME_SUFFIXES;

export { MIN_SECRET_LENGTH };

/**
 * Masks secrets in audit data before it is hashed, so a secret never reaches the file. Two rules, both the
 * foundation's: a value under a secret-looking key (`isSecretName`, plus any keys given) is masked whole;
 * a registered secret value (an API key snodo injected into a coder's environment) is masked wherever it
 * appears inside a string or key, in every form it leaks in (`SecretMatcher`: raw, base64 at every byte
 * alignment, URL-encoded).
 */
export class Redactor {
  readonly #matcher = new SecretMatcher();
  readonly #extraKeys: readonly string[];

  constructor(options: { secrets?: readonly string[]; secretKeys?: readonly string[] } = {}) {
    this.#extraKeys = (options.secretKeys ?? []).map(normalizeSecretName);
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
    this.#matcher.add(secret, REDACTED);
  }

  /** `true` when values under `key` are always masked. */
  isSecretKey(key: string): boolean {
    return isSecretName(key, this.#extraKeys);
  }

  /** `text` with every form of every registered secret replaced by `[REDACTED]`. */
  redactString(text: string): string {
    return this.#matcher.redact(text);
  }
}
