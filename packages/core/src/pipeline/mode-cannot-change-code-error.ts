import { SnodoError } from '@snodo/coder-sdk';

const name = 'ModeCannotChangeCodeError';
const marker = 'snodo.error.MODE_CANNOT_CHANGE_CODE';
const symbol = Symbol.for(marker);

/**
 * The mode a run would use has no tool that changes code (`edit` or `dispatch`), e.g. a `reviewer`: it may
 * never run a coder (SPEC §12). Refused before a job exists; exit 2.
 */
export class ModeCannotChangeCodeError extends SnodoError {
  private readonly [symbol] = true;

  readonly mode: string | undefined;

  constructor(options: { mode?: string; tools?: readonly string[]; executing: readonly string[] }) {
    const which =
      options.mode === undefined
        ? 'No mode of the protocol can change code'
        : `Mode '${options.mode}' cannot change code: its tools (${options.tools?.join(', ') || 'none'}) include neither edit nor dispatch`;
    const fix =
      options.executing.length > 0
        ? `Run it in a mode that can (--mode ${options.executing.join(' | --mode ')}), or leave --mode out.`
        : 'Give a mode the `edit` tool in .snodo/protocol.yml.';
    super('MODE_CANNOT_CHANGE_CODE', { message: `${which}, so it never runs a coder. ${fix}` });
    this.name = name;
    this.mode = options.mode;
  }

  static override isInstance(value: unknown): value is ModeCannotChangeCodeError {
    return SnodoError.hasMarker(value, marker);
  }
}
