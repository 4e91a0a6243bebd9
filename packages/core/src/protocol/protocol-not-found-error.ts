import { SnodoError } from '@snodo/coder-sdk';

const name = 'ProtocolNotFoundError';
const marker = 'snodo.error.PROTOCOL_NOT_FOUND';
const symbol = Symbol.for(marker);

/** There is no protocol file where snodo looked (exit 2). `snodo init` writes one. */
export class ProtocolNotFoundError extends SnodoError {
  private readonly [symbol] = true;

  /** The path that does not exist. */
  readonly path: string;

  constructor(options: { path: string; cause?: unknown }) {
    super('PROTOCOL_NOT_FOUND', {
      message:
        `No protocol file at ${options.path}: snodo needs the repository's rules before it runs a task. ` +
        'Run `snodo init` to write one (`snodo init --template team` for several modes), then commit it.',
      cause: options.cause,
    });
    this.name = name;
    this.path = options.path;
  }

  static override isInstance(value: unknown): value is ProtocolNotFoundError {
    return SnodoError.hasMarker(value, marker);
  }
}
