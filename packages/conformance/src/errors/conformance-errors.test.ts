import { SnodoError } from '@snodo/coder-sdk';
import { describe, expect, it } from 'vitest';
import { ConformanceFixtureError } from './conformance-fixture-error.js';
import { ConformanceObligationError } from './conformance-obligation-error.js';

describe('conformance errors', () => {
  it('an obligation failure starts with the obligation name and ends with the fix', () => {
    const error = new ConformanceObligationError({
      obligation: 'stdin-never-blocks',
      problem: 'stdin was left open.',
      fix: "spawn with stdin 'ignore'.",
    });
    expect(error.message).toBe("[stdin-never-blocks] stdin was left open. Fix: spawn with stdin 'ignore'.");
    expect(error).toMatchObject({
      code: 'CONFORMANCE_OBLIGATION_FAILED',
      obligation: 'stdin-never-blocks',
      problem: 'stdin was left open.',
    });
  });

  it('both are snodo errors recognised by marker, not by class identity', () => {
    const obligation = new ConformanceObligationError({ obligation: 'spec-shape', problem: 'x' });
    const fixture = new ConformanceFixtureError({ field: 'optOut.x', problem: 'names no obligation.' });
    expect(SnodoError.isInstance(obligation) && SnodoError.isInstance(fixture)).toBe(true);
    expect(ConformanceObligationError.isInstance(obligation)).toBe(true);
    expect(ConformanceObligationError.isInstance(fixture)).toBe(false);
    expect(ConformanceFixtureError.isInstance(fixture)).toBe(true);
    const lookalike = { [Symbol.for('snodo.error.CONFORMANCE_OBLIGATION_FAILED')]: true };
    expect(ConformanceObligationError.isInstance(lookalike)).toBe(true);
    expect(fixture.message).toBe('Conformance fixture field optOut.x names no obligation.');
  });
});
