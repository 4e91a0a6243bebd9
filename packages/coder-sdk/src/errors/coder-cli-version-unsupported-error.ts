import { SnodoError } from '@snodo/foundation';
import { describeVersionRange, type SupportedVersionRange } from '../version/version-range.js';

const marker = 'snodo.error.CODER_CLI_VERSION_UNSUPPORTED';

/**
 * The installed CLI reports a version outside the range its adapter was verified against. CLIs change
 * flags and output formats between versions; running an unverified one risks a run that silently does the
 * wrong thing, so snodo refuses before anything is written.
 */
export class CoderCliVersionUnsupportedError extends SnodoError<'CODER_CLI_VERSION_UNSUPPORTED'> {
  /** The coder's id. */
  readonly coderId: string;
  /** The version the CLI reported. */
  readonly foundVersion: string;
  /** The verified range, when known. */
  readonly supportedVersions: SupportedVersionRange | undefined;

  constructor(options: {
    coderId: string;
    displayName: string;
    foundVersion: string;
    supportedVersions?: SupportedVersionRange;
    installHint: string;
    cause?: unknown;
  }) {
    const range =
      options.supportedVersions === undefined
        ? 'its verified range'
        : describeVersionRange(options.supportedVersions);
    super('CODER_CLI_VERSION_UNSUPPORTED', {
      message:
        `${options.displayName} ${options.foundVersion} is outside the versions snodo verified (${range}). ` +
        `Install a verified version (${options.installHint}, pinned to a version ${range}), or point ` +
        `coders.${options.coderId}.binary at one.`,
      cause: options.cause,
    });
    this.name = 'CoderCliVersionUnsupportedError';
    SnodoError.mark(this, marker);
    this.coderId = options.coderId;
    this.foundVersion = options.foundVersion;
    this.supportedVersions = options.supportedVersions;
  }

  static override isInstance(value: unknown): value is CoderCliVersionUnsupportedError {
    return SnodoError.hasMarker(value, marker);
  }
}
