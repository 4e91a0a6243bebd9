import { SnodoError } from '@snodo/coder-sdk';

const name = 'CoderContractViolationError';
const marker = 'snodo.error.CODER_CONTRACT_VIOLATED';
const symbol = Symbol.for(marker);

/**
 * A coder returned a result that breaks the coder-v1 contract (more than one commit for one attempt, a
 * commit reported that is not the branch tip, changes left uncommitted…). Core re-checks every attempt
 * because third-party adapters need not be built on the SDK's base classes.
 */
export class CoderContractViolationError extends SnodoError {
  private readonly [symbol] = true;

  readonly coderId: string;

  constructor(options: { coderId: string; displayName: string; problem: string }) {
    super('CODER_CONTRACT_VIOLATED', {
      message:
        `${options.displayName} broke the coder contract: ${options.problem}. The job is kept for inspection; ` +
        `report it to the maintainers of the '${options.coderId}' coder, or run its conformance suite ` +
        '(@snodo/conformance).',
    });
    this.name = name;
    this.coderId = options.coderId;
  }

  static override isInstance(value: unknown): value is CoderContractViolationError {
    return SnodoError.hasMarker(value, marker);
  }
}
