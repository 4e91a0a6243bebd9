import { CoderCliVersionUnsupportedError, describeVersionRange, SnodoError } from '@snodo/coder-sdk';
import { SUPPORTED_OPENCODE_VERSIONS } from './version.js';

const name = 'OpencodeServerVersionError';
const marker = 'snodo.error.OpencodeServerVersionError';
const symbol = Symbol.for(marker);

/**
 * The OpenCode server (or the `opencode` binary that would start one) is not a 1.x release. OpenCode 2.x
 * no longer answers the V1 routes this coder speaks (they return the web app's HTML) and changed the
 * prompt body and the events, so a run against it would fail in confusing ways; snodo refuses it first.
 * Its code stays `CODER_CLI_VERSION_UNSUPPORTED`, so the CLI maps it like any unverified CLI version.
 */
export class OpencodeServerVersionError extends CoderCliVersionUnsupportedError {
  private readonly [symbol] = true;

  /** Where the version was found: the server's URL, or the binary's path. */
  readonly where: string;

  constructor(options: {
    coderId: string;
    displayName: string;
    foundVersion: string;
    where: string;
    installHint: string;
    cause?: unknown;
  }) {
    super({ ...options, supportedVersions: SUPPORTED_OPENCODE_VERSIONS });
    this.name = name;
    this.where = options.where;
    const range = describeVersionRange(SUPPORTED_OPENCODE_VERSIONS);
    const major = /^\d+/.exec(options.foundVersion)?.[0];
    const why =
      major !== undefined && Number(major) >= 2
        ? 'OpenCode 2.x serves a different API (its V1 routes answer HTML, the prompt body and events changed), ' +
          'and this coder speaks only the V1 server API of OpenCode 1.x'
        : `this coder was verified against OpenCode ${range}`;
    this.message =
      `${options.displayName}: ${options.where} is OpenCode ${options.foundVersion}, which snodo refuses: ${why}. ` +
      `Run an OpenCode 1.x server instead (${options.installHint}), or point coders.${options.coderId}.binary, ` +
      `.image or .url at one.`;
  }

  static override isInstance(value: unknown): value is OpencodeServerVersionError {
    return SnodoError.isInstance(value) && (value as unknown as Record<symbol, unknown>)[symbol] === true;
  }
}
