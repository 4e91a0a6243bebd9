import { SnodoError } from '@snodo/coder-sdk';

const name = 'ConformanceFixtureError';
const marker = 'snodo.error.CONFORMANCE_FIXTURE_INVALID';
const symbol = Symbol.for(marker);

/**
 * The fixture passed to `describeCoderConformance` or `runCoderConformance` is unusable: an opt-out
 * without a written reason, an opt-out naming no obligation, a `createAdapter` that throws. Reported as a
 * failing test of its own, so a fixture cannot quietly switch obligations off.
 */
export class ConformanceFixtureError extends SnodoError {
  private readonly [symbol] = true;

  /** The fixture field at fault (`optOut.hang-killed-with-group`). */
  readonly field: string;

  constructor(options: { field: string; problem: string; cause?: unknown }) {
    super('CONFORMANCE_FIXTURE_INVALID', {
      message: `Conformance fixture field ${options.field} ${options.problem}`,
      cause: options.cause,
    });
    this.name = name;
    this.field = options.field;
  }

  static override isInstance(value: unknown): value is ConformanceFixtureError {
    return SnodoError.hasMarker(value, marker);
  }
}
