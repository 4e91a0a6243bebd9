import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.SANDBOX_UNAVAILABLE';

/**
 * `execution.sandbox: required` and the run cannot be sandboxed: bubblewrap is missing or cannot start
 * here, the run asked for `--no-isolation` (the user's own checkout cannot be contained), or the coder
 * starts processes outside snodo's sandbox. Refused before the coder runs; exit 3 (environment).
 */
export class SandboxUnavailableError extends SnodoError<'SANDBOX_UNAVAILABLE'> {
  /** Why there is no sandbox, in one sentence. */
  readonly reason: string;
  /** What to do about it. */
  readonly fix: string;

  constructor(options: { reason: string; fix: string; source: 'protocol' | 'config' }) {
    const setting =
      options.source === 'config'
        ? 'your config says `sandbox.mode: required`'
        : 'the protocol says `execution.sandbox: required`';
    super('SANDBOX_UNAVAILABLE', {
      message: `This run needs a sandbox (${setting}) and cannot have one: ${options.reason}. ${options.fix}`,
    });
    this.name = 'SandboxUnavailableError';
    SnodoError.mark(this, marker);
    this.reason = options.reason;
    this.fix = options.fix;
  }

  static override isInstance(value: unknown): value is SandboxUnavailableError {
    return SnodoError.hasMarker(value, marker);
  }
}
