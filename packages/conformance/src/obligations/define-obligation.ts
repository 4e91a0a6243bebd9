import type { CoderAdapterV1 } from '@snodo/coder-sdk';
import type { ObligationName } from '../conformance/obligation-catalog.js';
import { useRepositoryTemplate } from '../conformance/repository-template.js';
import { createAdapterFor, resolveFixture } from '../conformance/resolved-fixture.js';
import { ConformanceObligationError } from '../errors/conformance-obligation-error.js';
import { type CoderObligation, describeError, ObligationScope } from './obligation-scope.js';

/**
 * Turns an obligation's body into the plain async function exported in `obligations`: it makes the
 * adapter, resolves the fixture, and makes sure every failure, expected or not, is a
 * `ConformanceObligationError` whose message starts with the obligation's name.
 */
export function defineObligation(
  name: ObligationName,
  body: (scope: ObligationScope) => Promise<void>,
): CoderObligation {
  return async (createAdapter, fixture) => {
    let adapter: CoderAdapterV1;
    try {
      adapter = createAdapterFor(createAdapter, fixture);
    } catch (error) {
      throw new ConformanceObligationError({
        obligation: name,
        problem: `createAdapter threw ${describeError(error)}.`,
        cause: error,
      });
    }
    const scope = new ObligationScope(
      name,
      createAdapter,
      fixture,
      adapter,
      resolveFixture(fixture, adapter),
    );
    const releaseTemplate = useRepositoryTemplate();
    try {
      await body(scope);
    } catch (error) {
      if (ConformanceObligationError.isInstance(error)) throw error;
      throw new ConformanceObligationError({
        obligation: name,
        problem: `the check could not complete: ${describeError(error)}.`,
        cause: error,
      });
    } finally {
      releaseTemplate();
    }
  };
}
