import { PatternRedactor, SecretMatcher } from '@snodo/foundation';

/** A secret to remove from output, with the variable name that replaces it. */
export interface Secret {
  /** The variable the value came from (`ANTHROPIC_API_KEY`); shown in its place. */
  readonly name: string;
  /** The value itself. */
  readonly value: string;
}

/**
 * Removes secrets from a stream of text, chunk by chunk: first the known values, in every form they leak in
 * (the foundation's `SecretMatcher`: raw, base64 at every alignment, URL-encoded; agents do print
 * `printenv` or encode keys), each replaced by `[redacted <NAME>]`, then whatever has the shape of a secret
 * (`SECRET_PATTERNS`: provider keys, tokens, JWTs) or is a PEM private key block (`PatternRedactor`). A
 * chunk ending in what could be the start of a secret keeps that ending back until the next chunk arrives,
 * so a value split across two chunks is still caught. Values shorter than four characters are not
 * redacted: they would match ordinary text everywhere. Redaction is hygiene, not a boundary: a coder that
 * wants to leak a key can encode it some other way; the sandbox is what keeps keys out of its reach.
 */
export class SecretRedactor {
  private readonly known = new SecretMatcher();
  private readonly shapes = new PatternRedactor();
  private pending = '';

  constructor(secrets: readonly Secret[]) {
    for (const secret of secrets) this.known.add(secret.value, `[redacted ${secret.name}]`);
  }

  /** Redacts a whole text at once (argv, a message). */
  redact(text: string): string {
    const shapes = new PatternRedactor();
    return shapes.push(this.known.redact(text)) + shapes.flush();
  }

  /**
   * Takes the next chunk; returns the text that is now safe to pass on. Only an ending that could be the
   * start of a secret is held back, so ordinary output (a progress line) passes on at once.
   */
  push(text: string): string {
    return this.shapes.push(this.pushKnown(text));
  }

  private pushKnown(text: string): string {
    const pattern = this.known.pattern;
    if (pattern === undefined) return text;
    const combined = this.pending + text;
    let output = '';
    let index = 0;
    pattern.lastIndex = 0;
    for (const match of combined.matchAll(pattern)) {
      output += combined.slice(index, match.index) + this.known.replacementFor(match[0]);
      index = match.index + match[0].length;
    }
    const rest = combined.slice(index);
    let hold = this.known.partialLength(rest);
    // Never split a UTF-16 surrogate pair between what is passed on and what is held back.
    const cut = rest.length - hold;
    if (cut > 0 && cut < rest.length) {
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) hold += 1;
    }
    this.pending = rest.slice(rest.length - hold);
    return output + rest.slice(0, rest.length - hold);
  }

  /** Returns whatever is still held back, redacted; call once at the end of the stream. */
  flush(): string {
    const rest = this.known.redact(this.pending);
    this.pending = '';
    return this.shapes.push(rest) + this.shapes.flush();
  }
}
