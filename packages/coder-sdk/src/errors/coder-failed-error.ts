import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.CODER_FAILED';

/** How many trailing lines of stderr go into the message itself; the full tail stays in `stderrTail`. */
const messageTailLines = 12;

/**
 * The coder's process ended with a non-zero exit code or was killed by a signal snodo did not send. The
 * message carries the end of its stderr, which usually says why (bad key, unknown flag, crash).
 */
export class CoderFailedError extends SnodoError<'CODER_FAILED'> {
  /** The coder's id. */
  readonly coderId: string;
  /** The exit code, when the process exited on its own. */
  readonly exitCode: number | undefined;
  /** The signal that ended the process (`SIGSEGV`), when it did not exit on its own. */
  readonly signal: string | undefined;
  /** The last part of the coder's stderr (a few KB), secrets already redacted. */
  readonly stderrTail: string;

  constructor(options: {
    coderId: string;
    displayName: string;
    exitCode?: number;
    signal?: string;
    stderrTail?: string;
    /** Used instead of the exit description when the failure was not an exit (the process could not start). */
    reason?: string;
    cause?: unknown;
  }) {
    const stderrTail = options.stderrTail ?? '';
    const what =
      options.reason ??
      (options.signal === undefined
        ? `exited with code ${options.exitCode ?? 'unknown'}`
        : `was killed by signal ${options.signal}`);
    const shownTail = stderrTail.trimEnd().split('\n').slice(-messageTailLines).join('\n');
    const tailText =
      shownTail === '' ? ' It printed nothing on stderr.' : `\nstderr (last lines):\n${shownTail}\n`;
    super('CODER_FAILED', {
      message:
        `${options.displayName} ${what}.${tailText}` +
        ' The full output is in the job transcript (`snodo logs <job>`).',
      cause: options.cause,
    });
    this.name = 'CoderFailedError';
    SnodoError.mark(this, marker);
    this.coderId = options.coderId;
    this.exitCode = options.exitCode;
    this.signal = options.signal;
    this.stderrTail = stderrTail;
  }

  static override isInstance(value: unknown): value is CoderFailedError {
    return SnodoError.hasMarker(value, marker);
  }
}
