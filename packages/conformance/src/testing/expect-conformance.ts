/**
 * Test support (not exported, not built): runs chosen obligations against an adapter and checks which
 * fail, and why.
 */
import { expect } from 'vitest';
import type {
  CoderAdapterFactory,
  CoderConformanceFixture,
} from '../conformance/coder-conformance-fixture.js';
import type { ObligationName } from '../conformance/obligation-catalog.js';
import { runCoderConformance } from '../conformance/run-coder-conformance.js';
import { ConformanceObligationError } from '../errors/conformance-obligation-error.js';

/** The fixture of the example coder, shared by the kit's own tests. */
export const exampleFixture: CoderConformanceFixture = {
  fakeCli: {
    versionOutput: 'example-coder 1.4.2',
    usageOutput:
      '{"type":"result","usage":{"input_tokens":1200,"output_tokens":340,"cached_input_tokens":200},"total_cost_usd":0.0123}',
  },
};

/** What an adapter is expected to do on a set of obligations. */
export interface ConformanceExpectation {
  /** Obligations it must fail, each with a text its failure message must contain. */
  readonly fails: Partial<Record<ObligationName, string>>;
  /** Obligations it must still pass. */
  readonly passes: readonly ObligationName[];
}

/**
 * Runs the named obligations and asserts that exactly `fails` fail (each with its own name in brackets and
 * the expected reason in the message) and `passes` pass.
 */
export async function expectConformance(
  createAdapter: CoderAdapterFactory,
  expectation: ConformanceExpectation,
  fixture: CoderConformanceFixture = exampleFixture,
): Promise<void> {
  const failing = Object.keys(expectation.fails) as ObligationName[];
  const results = await runCoderConformance(createAdapter, fixture, {
    only: [...failing, ...expectation.passes],
  });
  const messages = results
    .filter((result) => result.error !== undefined)
    .map((result) => String((result.error as Error).message))
    .join('\n');
  const statuses = Object.fromEntries(results.map((result) => [result.obligation, result.status]));
  const expected = Object.fromEntries([
    ...failing.map((name) => [name, 'failed']),
    ...expectation.passes.map((name) => [name, 'passed']),
  ]);
  expect(statuses, messages).toEqual(expected);
  for (const name of failing) {
    const error = results.find((result) => result.obligation === name)?.error;
    expect(ConformanceObligationError.isInstance(error)).toBe(true);
    expect((error as ConformanceObligationError).obligation).toBe(name);
    expect((error as Error).message).toMatch(new RegExp(`^\\[${name}\\] `));
    expect((error as Error).message).toContain(expectation.fails[name]);
  }
}
