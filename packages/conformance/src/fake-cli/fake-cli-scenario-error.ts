import { SnodoError } from '@snodo/coder-sdk';

const name = 'FakeCliScenarioError';
const marker = 'snodo.error.FAKE_CLI_SCENARIO_INVALID';
const symbol = Symbol.for(marker);

/**
 * `createFakeCli` or `FakeCli.setScenario` was given a scenario that does not match
 * `fakeCliScenarioSchema`. Thrown before anything is written, so a typo in a test fails loudly instead of
 * making the adapter under test look broken.
 */
export class FakeCliScenarioError extends SnodoError {
  private readonly [symbol] = true;

  /** Each problem as `path: message`. */
  readonly problems: readonly string[];

  constructor(options: { problems: readonly string[]; cause?: unknown }) {
    super('FAKE_CLI_SCENARIO_INVALID', {
      message:
        `The fake CLI scenario is invalid: ${options.problems.join('; ')}. ` +
        'See fakeCliScenarioSchema (README, "The fake CLI") for the accepted fields.',
      cause: options.cause,
    });
    this.name = name;
    this.problems = [...options.problems];
  }

  static override isInstance(value: unknown): value is FakeCliScenarioError {
    return SnodoError.hasMarker(value, marker);
  }
}
