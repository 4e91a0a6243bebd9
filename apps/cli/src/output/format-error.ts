import { errorCode } from '../exit-codes.js';
import type { Palette } from './palette.js';

/** How `formatError` renders. */
export interface FormatErrorOptions {
  /** Colours of the stream the error goes to (stderr). */
  readonly palette: Palette;
  /** `--verbose`: add the cause chain, and the stack of an error that is not snodo's. */
  readonly verbose: boolean;
}

function isSnodoError(error: unknown): boolean {
  return (
    error !== null &&
    typeof error === 'object' &&
    (error as Record<symbol, unknown>)[Symbol.for('snodo.error')] === true
  );
}

/**
 * The lines under the message that tell the user what to type: a CLI error's `fix`, or a not-installed
 * coder's `quickSetup` (whose first line repeats the message, so it is left out).
 */
function fixLines(error: unknown): string[] {
  if (error === null || typeof error !== 'object') return [];
  const { fix, quickSetup } = error as { fix?: unknown; quickSetup?: unknown };
  if (typeof fix === 'string' && fix !== '') return [`fix: ${fix}`];
  if (typeof quickSetup === 'string' && quickSetup !== '') {
    return quickSetup
      .split('\n')
      .slice(1)
      .map((line) => line.trimEnd());
  }
  return [];
}

/** The command (or commands, one a line) that fixes `error`, or `null`: what `--json` prints as `fix`. */
export function errorFix(error: unknown): string | null {
  const lines = fixLines(error).map((line) => line.replace(/^fix: /, '').trim());
  const text = lines.filter((line) => line !== '').join('\n');
  return text === '' ? null : text;
}

function causeLines(error: unknown): string[] {
  const lines: string[] = [];
  let cause = (error as { cause?: unknown } | null)?.cause;
  for (let depth = 0; cause !== undefined && cause !== null && depth < 8; depth += 1) {
    const message = cause instanceof Error ? cause.message : String(cause);
    const code = errorCode(cause);
    lines.push(`cause: ${code === undefined ? '' : `[${code}] `}${message}`);
    cause = (cause as { cause?: unknown }).cause;
  }
  return lines;
}

/**
 * An error as the CLI prints it on stderr: `error: <message>`, then the command that fixes it when the
 * error carries one; with `--verbose` the error code and the cause chain too. An error that is not snodo's
 * (a bug) says so and how to report it.
 */
export function formatError(error: unknown, options: FormatErrorOptions): string {
  const { palette } = options;
  const message = error instanceof Error ? error.message : String(error);
  const lines = [`${palette.red(palette.bold('error:'))} ${message}`];
  for (const line of fixLines(error)) lines.push(palette.dim(line));
  if (!isSnodoError(error)) {
    lines.push(
      palette.dim(
        options.verbose
          ? 'This looks like a bug in snodo; please report it with the output above.'
          : 'This looks like a bug in snodo; run again with --verbose and report the output.',
      ),
    );
  }
  if (options.verbose) {
    const code = errorCode(error);
    if (code !== undefined) lines.push(palette.dim(`code: ${code}`));
    for (const line of causeLines(error)) lines.push(palette.dim(line));
    if (!isSnodoError(error) && error instanceof Error && error.stack) lines.push(palette.dim(error.stack));
  }
  return `${lines.join('\n')}\n`;
}
