import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.CODER_NOT_INSTALLED';

/**
 * The executable a coder needs is not on PATH (or not at the configured path). Thrown by
 * `SubprocessCoderAdapter.doRun` before anything is written, and built by `availabilityError` from a
 * not-installed availability. The CLI prints `quickSetup` as the fix.
 */
export class CoderNotInstalledError extends SnodoError<'CODER_NOT_INSTALLED'> {
  /** The coder's id (`claude-code`). */
  readonly coderId: string;
  /** The coder's human name, used in the message. */
  readonly displayName: string;
  /** The adapter's one-line install instruction. */
  readonly installHint: string;
  /** The executable that was looked for, when the coder runs one. */
  readonly binary: string | undefined;
  /**
   * A few lines a user can follow: how to install, how to check, how to pick another coder. Stable enough
   * to print as is under the error message.
   */
  readonly quickSetup: string;

  constructor(options: {
    coderId: string;
    displayName: string;
    installHint: string;
    /** The executable name or configured path that was not found. */
    binary?: string;
    /** Why it counts as not installed, when more specific than "not found" (a configured path is missing). */
    reason?: string;
    cause?: unknown;
  }) {
    const why =
      options.reason ??
      (options.binary === undefined
        ? 'what it needs is not installed'
        : `no \`${options.binary}\` executable was found on PATH`);
    const checkLine =
      options.binary === undefined
        ? '  Check:   snodo coders'
        : `  Check:   ${options.binary} --version   (or: snodo coders)`;
    const quickSetup = [
      `${options.displayName} is not installed: ${why}.`,
      `  Install: ${options.installHint}`,
      checkLine,
      `  Binary elsewhere? Set coders.${options.coderId}.binary in snodo's config.`,
      '  Or pick another coder: snodo run "<task>" --coder <id>   (snodo coders lists them)',
    ].join('\n');
    super('CODER_NOT_INSTALLED', {
      message:
        `${options.displayName} is not installed: ${why}. ${options.installHint.replace(/[.\s]+$/, '')}; ` +
        `check with \`snodo coders\`, or choose another coder with --coder <id>.`,
      cause: options.cause,
    });
    this.name = 'CoderNotInstalledError';
    SnodoError.mark(this, marker);
    this.coderId = options.coderId;
    this.displayName = options.displayName;
    this.installHint = options.installHint;
    this.binary = options.binary;
    this.quickSetup = quickSetup;
  }

  static override isInstance(value: unknown): value is CoderNotInstalledError {
    return SnodoError.hasMarker(value, marker);
  }
}
