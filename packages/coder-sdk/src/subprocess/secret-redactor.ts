import { PatternRedactor } from './pattern-redactor.js';

/** A secret to remove from output, with the variable name that replaces it. */
export interface Secret {
  /** The variable the value came from (`ANTHROPIC_API_KEY`); shown in its place. */
  readonly name: string;
  /** The value itself. */
  readonly value: string;
}

/** Values shorter than this are not redacted: they would match ordinary text everywhere. */
const minimumSecretLength = 4;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Removes secrets from a stream of text, chunk by chunk: first the known values (the raw value and its
 * base64 and URL-encoded forms; agents do print `printenv` or encode keys), each replaced by
 * `[redacted <NAME>]`, then whatever has the shape of a secret (`SECRET_PATTERNS`: provider keys, tokens,
 * JWTs) or is a PEM private key block (`PatternRedactor`). A chunk ending in what could be the start of a
 * secret keeps that ending back until the next chunk arrives, so a value split across two chunks is still
 * caught. Redaction is hygiene, not a boundary: a coder that wants to leak a key can encode it some other
 * way; the sandbox is what keeps keys out of its reach.
 */
export class SecretRedactor {
  private readonly pattern: RegExp | undefined;
  private readonly replacements = new Map<string, string>();
  private readonly holdBack: number;
  private readonly shapes = new PatternRedactor();
  private pending = '';

  constructor(secrets: readonly Secret[]) {
    for (const secret of secrets) {
      if (secret.value.length < minimumSecretLength) continue;
      const replacement = `[redacted ${secret.name}]`;
      const forms = [
        secret.value,
        Buffer.from(secret.value, 'utf8').toString('base64'),
        Buffer.from(secret.value, 'utf8').toString('base64').replace(/=+$/, ''),
        encodeURIComponent(secret.value),
      ];
      for (const form of forms) if (!this.replacements.has(form)) this.replacements.set(form, replacement);
    }
    const forms = [...this.replacements.keys()].sort((left, right) => right.length - left.length);
    this.pattern = forms.length === 0 ? undefined : new RegExp(forms.map(escapeRegExp).join('|'), 'g');
    this.holdBack = forms.length === 0 ? 0 : (forms[0]?.length ?? 1) - 1;
  }

  /** Redacts a whole text at once (argv, a message). */
  redact(text: string): string {
    const known =
      this.pattern === undefined
        ? text
        : text.replace(this.pattern, (match) => this.replacements.get(match) ?? match);
    const shapes = new PatternRedactor();
    return shapes.push(known) + shapes.flush();
  }

  /**
   * Takes the next chunk; returns the text that is now safe to pass on. Only an ending that could be the
   * start of a secret is held back, so ordinary output (a progress line) passes on at once.
   */
  push(text: string): string {
    return this.shapes.push(this.pushKnown(text));
  }

  private pushKnown(text: string): string {
    if (this.pattern === undefined) return text;
    const combined = this.pending + text;
    let output = '';
    let index = 0;
    this.pattern.lastIndex = 0;
    for (const match of combined.matchAll(this.pattern)) {
      output += combined.slice(index, match.index) + (this.replacements.get(match[0]) ?? match[0]);
      index = match.index + match[0].length;
    }
    const rest = combined.slice(index);
    let hold = this.partialSecretLength(rest);
    // Never split a UTF-16 surrogate pair between what is passed on and what is held back.
    const cut = rest.length - hold;
    if (cut > 0 && cut < rest.length) {
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) hold += 1;
    }
    this.pending = rest.slice(rest.length - hold);
    return output + rest.slice(0, rest.length - hold);
  }

  /** The length of the longest ending of `text` that is the beginning of a secret form. */
  private partialSecretLength(text: string): number {
    for (let length = Math.min(this.holdBack, text.length); length > 0; length -= 1) {
      const ending = text.slice(text.length - length);
      for (const form of this.replacements.keys()) if (form.startsWith(ending)) return length;
    }
    return 0;
  }

  /** Returns whatever is still held back, redacted; call once at the end of the stream. */
  flush(): string {
    const rest =
      this.pattern === undefined
        ? this.pending
        : this.pending.replace(this.pattern, (match) => this.replacements.get(match) ?? match);
    this.pending = '';
    return this.shapes.push(rest) + this.shapes.flush();
  }
}
