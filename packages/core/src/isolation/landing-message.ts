import { IsolationFailedError } from './isolation-failed-error.js';

/** Trailer keys git recognises: a token of letters, digits and dashes. */
const trailerKeyPattern = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

/**
 * The commit message of a merge or squash commit: the caller's message, a blank line, then one
 * `Key: value` trailer per entry (the audit checkpoint among them). Values are flattened to one line so a
 * value can never forge a second trailer.
 */
export function landingMessage(message: string, trailers: Readonly<Record<string, string>> = {}): string {
  const body = message.replace(/\s+$/, '');
  const lines: string[] = [];
  for (const [key, value] of Object.entries(trailers)) {
    if (!trailerKeyPattern.test(key)) {
      throw new IsolationFailedError({
        operation: 'land',
        message: `Invalid commit trailer key ${JSON.stringify(key)}.`,
      });
    }
    lines.push(`${key}: ${value.replace(/[\r\n]+/g, ' ').trim()}`);
  }
  const text = lines.length === 0 ? body : `${body}\n\n${lines.join('\n')}`;
  return `${text}\n`;
}
