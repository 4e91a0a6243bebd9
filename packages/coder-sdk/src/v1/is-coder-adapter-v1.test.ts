import { describe, expect, it } from 'vitest';
import { CoderSpecificationUnsupportedError } from '../errors/coder-specification-unsupported-error.js';
import { MockCoderAdapterV1 } from '../test-kit/mock-coder-adapter-v1.js';
import { assertCoderAdapterV1, isCoderAdapterV1 } from './is-coder-adapter-v1.js';

/** A coder written by hand, without the SDK's classes: structure is all that counts. */
function plainAdapter(): Record<string, unknown> {
  return {
    specificationVersion: 'coder-v1',
    id: 'hand-made',
    displayName: 'Hand Made',
    kind: 'engine-managed',
    modelPrefix: undefined,
    installHint: 'nothing',
    credentials: { envVars: [] },
    checkAvailability: async () => ({ ready: true, installed: true, credentials: 'not-needed' }),
    doRun: async () => ({ status: 'no-changes', changedFiles: [], usage: null, durationMs: 0 }),
  };
}

describe('isCoderAdapterV1', () => {
  it('accepts the mock and a hand-written object of the right shape', () => {
    expect(isCoderAdapterV1(new MockCoderAdapterV1())).toBe(true);
    expect(isCoderAdapterV1(plainAdapter())).toBe(true);
  });

  it.each([
    ['another version', { specificationVersion: 'coder-v2' }],
    ['no tag', { specificationVersion: undefined }],
    ['no id', { id: '' }],
    ['an unknown kind', { kind: 'remote' }],
    ['a numeric modelPrefix', { modelPrefix: 3 }],
    ['no credentials list', { credentials: {} }],
    ['no doRun', { doRun: 'run' }],
    ['no checkAvailability', { checkAvailability: undefined }],
  ])('rejects %s', (_label, change) => {
    expect(isCoderAdapterV1({ ...plainAdapter(), ...change })).toBe(false);
  });

  it('rejects values that are not objects', () => {
    for (const value of [null, undefined, 'coder-v1', () => undefined])
      expect(isCoderAdapterV1(value)).toBe(false);
  });
});

describe('assertCoderAdapterV1', () => {
  it('throws CODER_SPECIFICATION_UNSUPPORTED naming the declared version', () => {
    let caught: unknown;
    try {
      assertCoderAdapterV1({ ...plainAdapter(), specificationVersion: 'coder-v2' });
    } catch (error) {
      caught = error;
    }
    expect(CoderSpecificationUnsupportedError.isInstance(caught)).toBe(true);
    expect((caught as CoderSpecificationUnsupportedError).specificationVersion).toBe('coder-v2');
    expect((caught as Error).message).toContain('Coder "hand-made" declares specification "coder-v2"');
  });

  it('passes a valid adapter through', () => {
    expect(() => assertCoderAdapterV1(plainAdapter())).not.toThrow();
  });
});
