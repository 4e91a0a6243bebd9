import { SnodoError, type SnodoErrorOptions } from '@snodo/foundation';

const marker = 'snodo.error.CliError';

/** Every code the CLI raises itself; `exit-codes.ts` maps each, with every package's codes. */
export type CliErrorCode =
  | 'AUDIT_LOG_NOT_FOUND'
  /** `snodo run --background` could not start its detached process, or the coder cannot run here. */
  | 'BACKGROUND_START_FAILED'
  /** The user cancelled a prompt (Ctrl-C): nothing was changed; exit 130. */
  | 'CLI_CANCELLED'
  | 'CLI_USAGE'
  | 'JOB_NOT_FOUND'
  /** `snodo job wait --timeout` ran out while the job still runs. */
  | 'JOB_WAIT_TIMEOUT'
  | 'PROTOCOL_EXISTS';

/** The options every CLI error takes. */
export interface CliErrorOptions extends SnodoErrorOptions {
  /** The command that fixes it, printed on its own line under the message. */
  readonly fix?: string | undefined;
}

/**
 * The errors the CLI raises itself (a flag value that cannot be read, a file that is already there). It
 * extends the foundation's root, so `exitCodeForError` reads it like any snodo error; the foundation has no
 * dependencies, so the start-up path (`snodo --help`) stays free of core and the coders.
 */
export class CliError extends SnodoError<CliErrorCode> {
  /** The command that fixes it, when there is one. */
  readonly fix: string | undefined;

  constructor(code: CliErrorCode, options: CliErrorOptions) {
    super(code, options);
    this.name = 'CliError';
    SnodoError.mark(this, marker);
    this.fix = options.fix;
  }

  /** `true` for a CLI error from any copy of this package. */
  static override isInstance(value: unknown): value is CliError {
    return SnodoError.hasMarker(value, marker);
  }
}
