/** The shortest secret value a matcher accepts; shorter ones would mask ordinary words. */
export const MIN_SECRET_LENGTH = 4;

/**
 * Finds known secret values (API keys snodo handed to a coder, keys from config) in text, in every form
 * they leak in: raw, URL-encoded (`%2F`, and `+` for spaces as forms send it), and base64 — standard and
 * url-safe, padded, and at each of the three byte alignments, so a key is also found inside a larger
 * encoded string such as `Basic <base64 of user:key>`. Each value has its replacement (`[REDACTED]` in the
 * audit log, `[redacted ANTHROPIC_API_KEY]` in a transcript). The one value matcher of snodo: the audit
 * log's `Redactor` and the SDK's streaming `SecretRedactor` both wrap it.
 */
export class SecretMatcher {
  readonly #replacements = new Map<string, string>();
  #pattern: RegExp | undefined;
  #longest = 0;

  /**
   * Registers `value`, to be replaced by `replacement` wherever it appears. A value shorter than
   * `MIN_SECRET_LENGTH` is ignored (returns `false`); a form registered earlier keeps its replacement.
   */
  add(value: string, replacement: string): boolean {
    if (value.length < MIN_SECRET_LENGTH) return false;
    for (const form of secretForms(value)) {
      if (this.#replacements.has(form)) continue;
      this.#replacements.set(form, replacement);
      this.#longest = Math.max(this.#longest, form.length);
      this.#pattern = undefined;
    }
    return true;
  }

  /** `true` when no value is registered. */
  get empty(): boolean {
    return this.#replacements.size === 0;
  }

  /** The length of the longest form: what a stream must be able to hold back. */
  get longestForm(): number {
    return this.#longest;
  }

  /** `text` with every form of every registered value replaced. */
  redact(text: string): string {
    const pattern = this.pattern;
    if (pattern === undefined) return text;
    pattern.lastIndex = 0;
    if (!pattern.test(text)) return text;
    return text.replace(pattern, (match) => this.replacementFor(match));
  }

  /** One global regular expression matching every form, longest first; `undefined` when empty. */
  get pattern(): RegExp | undefined {
    if (this.#pattern === undefined && !this.empty) {
      const forms = [...this.#replacements.keys()].sort((left, right) => right.length - left.length);
      this.#pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'g');
    }
    return this.#pattern;
  }

  /** The replacement of a matched form. */
  replacementFor(form: string): string {
    return this.#replacements.get(form) ?? form;
  }

  /** The length of the longest ending of `text` that is the beginning of a form (what to hold back). */
  partialLength(text: string): number {
    for (let length = Math.min(this.#longest - 1, text.length); length > 0; length -= 1) {
      const ending = text.slice(text.length - length);
      for (const form of this.#replacements.keys()) if (form.startsWith(ending)) return length;
    }
    return 0;
  }
}

/** The textual forms a secret leaks in: raw, URL-encoded, and base64 at each of the three alignments. */
function secretForms(secret: string): string[] {
  const forms = [secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+')];
  const bytes = Buffer.from(secret, 'utf8');
  // The whole encoding too, padded and not (base64url has no padding), so a standalone base64 value is
  // replaced to its last character.
  const base64 = bytes.toString('base64');
  forms.push(base64, base64.replace(/=+$/, ''), bytes.toString('base64url'));
  for (let shift = 0; shift < 3; shift++) {
    // Encode the secret behind `shift` filler bytes and keep only the characters determined by the
    // secret's own bits: those appear verbatim in any base64 text containing the secret at that alignment.
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const first = Math.ceil((shift * 8) / 6);
    const last = Math.floor(((shift + bytes.length) * 8) / 6);
    const core = encoded.slice(first, last);
    forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms.filter((form) => form.length >= MIN_SECRET_LENGTH);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
