import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.SANDBOX_INVALID';

/**
 * A `CoderV1Sandbox` cannot be turned into a sandbox: a mount path is not absolute, or a writable mount's
 * source does not exist (bubblewrap would refuse to start, and a coder that runs without its workspace is
 * worse than one that does not run). Raised before any process starts. The sandbox is built by core (or an
 * embedder), so this is a bug or a removed directory, not something the coder did.
 */
export class SandboxInvalidError extends SnodoError<'SANDBOX_INVALID'> {
  /** The mount path (or source) at fault. */
  readonly path: string;
  /** What is wrong with it, in a few words. */
  readonly problem: string;

  constructor(options: { path: string; problem: string; fix: string; cause?: unknown }) {
    super('SANDBOX_INVALID', {
      message: `The sandbox cannot be set up: ${options.path} ${options.problem}. ${options.fix}`,
      cause: options.cause,
    });
    this.name = 'SandboxInvalidError';
    SnodoError.mark(this, marker);
    this.path = options.path;
    this.problem = options.problem;
  }

  static override isInstance(value: unknown): value is SandboxInvalidError {
    return SnodoError.hasMarker(value, marker);
  }
}
