import { SnodoError } from '@snodo/coder-sdk';

const name = 'ModeUnknownError';
const marker = 'snodo.error.MODE_UNKNOWN';
const symbol = Symbol.for(marker);

/** `--mode <id>` names no mode of the protocol. */
export class ModeUnknownError extends SnodoError {
  private readonly [symbol] = true;

  readonly mode: string;
  readonly available: readonly string[];

  constructor(options: { mode: string; available: readonly string[] }) {
    super('MODE_UNKNOWN', {
      message:
        `The protocol has no mode '${options.mode}'. Its modes: ${options.available.join(', ')}. ` +
        'Pass one of them with --mode, or leave --mode out to let snodo choose.',
    });
    this.name = name;
    this.mode = options.mode;
    this.available = options.available;
  }

  static override isInstance(value: unknown): value is ModeUnknownError {
    return SnodoError.hasMarker(value, marker);
  }
}
