import { SnodoError } from '@snodo/coder-sdk';

const name = 'ProtocolTemplateUnknownError';
const marker = 'snodo.error.PROTOCOL_TEMPLATE_UNKNOWN';
const symbol = Symbol.for(marker);

/** `snodo init --template <name>` named a template that does not exist (a usage error, exit 2). */
export class ProtocolTemplateUnknownError extends SnodoError {
  private readonly [symbol] = true;

  /** The name that was asked for. */
  readonly template: string;
  /** The names that exist. */
  readonly available: readonly string[];

  constructor(options: { template: string; available: readonly string[] }) {
    super('PROTOCOL_TEMPLATE_UNKNOWN', {
      message:
        `There is no protocol template '${options.template}'. ` +
        `Choose one of ${options.available.join(', ')}, for example \`snodo init --template ${options.available[0] ?? 'solo'}\`.`,
    });
    this.name = name;
    this.template = options.template;
    this.available = options.available;
  }

  static override isInstance(value: unknown): value is ProtocolTemplateUnknownError {
    return SnodoError.hasMarker(value, marker);
  }
}
