import { CoderSpecificationUnsupportedError } from '../errors/coder-specification-unsupported-error.js';
import type { CoderAdapterV1 } from './coder-v1.js';

const kinds: ReadonlySet<unknown> = new Set(['engine-managed', 'in-place']);

/**
 * What is wrong with `value` as a `coder-v1` adapter, or `undefined` when nothing is. Checks the tag and
 * every required member by shape, never `instanceof`, so adapters built without the SDK's base classes or
 * against another copy of the SDK pass.
 */
function findProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return 'is not an object';
  const candidate = value as Record<string, unknown>;
  if (candidate.specificationVersion !== 'coder-v1') {
    return typeof candidate.specificationVersion === 'string'
      ? `declares specification "${candidate.specificationVersion}"`
      : 'declares no specificationVersion';
  }
  if (typeof candidate.id !== 'string' || candidate.id === '') return 'has no id';
  if (typeof candidate.displayName !== 'string' || candidate.displayName === '') return 'has no displayName';
  if (!kinds.has(candidate.kind)) return 'has a kind other than engine-managed or in-place';
  if (candidate.modelPrefix !== undefined && typeof candidate.modelPrefix !== 'string') {
    return 'has a modelPrefix that is not a string';
  }
  if (typeof candidate.installHint !== 'string') return 'has no installHint';
  const credentials = candidate.credentials as Record<string, unknown> | null | undefined;
  if (credentials === null || typeof credentials !== 'object' || !Array.isArray(credentials.envVars)) {
    return 'has no credentials.envVars list';
  }
  if (typeof candidate.checkAvailability !== 'function') return 'has no checkAvailability method';
  if (typeof candidate.doRun !== 'function') return 'has no doRun method';
  return undefined;
}

/**
 * `true` when `value` has the shape of a `coder-v1` adapter: the `specificationVersion: 'coder-v1'` tag,
 * `id`, `displayName`, `kind`, `modelPrefix`, `installHint`, `credentials.envVars`, `checkAvailability`
 * and `doRun`. Core calls it on every registered coder before using it.
 */
export function isCoderAdapterV1(value: unknown): value is CoderAdapterV1 {
  return findProblem(value) === undefined;
}

/**
 * Throws `CoderSpecificationUnsupportedError` naming what is wrong unless `value` is a `coder-v1` adapter.
 * For registries that load third-party coder packages and want one clear error.
 */
export function assertCoderAdapterV1(value: unknown): asserts value is CoderAdapterV1 {
  const problem = findProblem(value);
  if (problem === undefined) return;
  const candidate = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  throw new CoderSpecificationUnsupportedError({
    coderId: typeof candidate.id === 'string' ? candidate.id : undefined,
    specificationVersion: candidate.specificationVersion,
    problem,
  });
}
