import { errorCode } from '../exit-codes.js';
import type { ErrorJson } from '../json/error-json-schema.js';
import { errorFix } from './format-error.js';

/**
 * Whether the command line asks for JSON: a `--json` token before any `--` (after it, every token is the
 * task's). Read from argv, not from the parsed options, so a usage error commander raises before any action
 * runs still gets its JSON document.
 */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/** The error document `--json` prints on stdout (`errorJsonSchema`). */
export function errorJson(error: unknown, exitCode: number): ErrorJson {
  const message = error instanceof Error ? error.message : String(error);
  return {
    version: 1,
    type: 'error',
    // NOTE: commander's messages start with `error: `; the document's `message` is the message only.
    code: errorCode(error) ?? 'INTERNAL_ERROR',
    message: message.replace(/^error: /, ''),
    fix: errorFix(error),
    exitCode,
  };
}
