const name = 'CliError';
const rootSymbol = Symbol.for('snodo.error');
const marker = 'snodo.error.CliError';
const symbol = Symbol.for(marker);

/** The options every CLI error takes. */
export interface CliErrorOptions {
  /** What failed and why. */
  readonly message: string;
  /** The command that fixes it, printed on its own line under the message. */
  readonly fix?: string | undefined;
  /** The underlying error, shown by `--verbose`. */
  readonly cause?: unknown;
}

/**
 * The root of the errors the CLI raises itself (a flag value that cannot be read, a file that is already
 * there). It carries the same `snodo.error` marker as every snodo error, so `exitCodeForError` treats it
 * like one, without the CLI importing `@snodo/coder-sdk` at start-up (which would defeat the lazy start).
 */
export class CliError extends Error {
  private readonly [rootSymbol] = true;
  private readonly [symbol] = true;

  /** The stable error code, mapped to an exit code in `exit-codes.ts`. */
  readonly code: string;
  /** The command that fixes it, when there is one. */
  readonly fix: string | undefined;

  constructor(code: string, options: CliErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
    this.code = code;
    this.fix = options.fix;
  }

  /** `true` for a CLI error from any copy of this package. */
  static isInstance(value: unknown): value is CliError {
    return CliError.hasMarker(value, marker);
  }

  /** `true` when `value` carries the `Symbol.for(markerName)` marker. */
  protected static hasMarker(value: unknown, markerName: string): boolean {
    return (
      value != null &&
      typeof value === 'object' &&
      (value as Record<symbol, unknown>)[Symbol.for(markerName)] === true
    );
  }
}
