import type { CoderAdapterV1, CoderRegistrationV1 } from '@snodo/coder-sdk';
import { coderPackageExportNames } from './coder-package-invalid-error.js';
import type { CoderSettings } from './coder-registration.js';

/** What a coder package offers under one of the accepted export names. */
export type CoderExport =
  /** A `CoderRegistrationV1`: the coder's facts plus a lazy `load` (the preferred form). */
  | {
      readonly form: 'registration';
      readonly name: string;
      readonly registration: CoderRegistrationV1<CoderSettings>;
    }
  /** A function given the coder's config entry that returns (or resolves to) an adapter. */
  | {
      readonly form: 'factory';
      readonly name: string;
      readonly factory: (settings: CoderSettings) => CoderAdapterV1 | Promise<CoderAdapterV1>;
    }
  /** A value that should be an adapter; the registry checks it (`isCoderAdapterV1`) once loaded. */
  | { readonly form: 'adapter'; readonly name: string; readonly adapter: unknown };

/**
 * Picks the coder a package module exports, trying `coderPackageExportNames` in order (`registration`,
 * `default`, `createCoder`, `coder`). A registration is told from an adapter by its shape (an `id`, a
 * `load` function and no `specificationVersion`), so `export default registration` works too. Returns
 * `undefined` when none of the names holds anything.
 */
export function findCoderExport(module: Readonly<Record<string, unknown>>): CoderExport | undefined {
  for (const name of coderPackageExportNames) {
    const value = module[name];
    if (value === undefined || value === null) continue;
    if (typeof value === 'function') {
      return { form: 'factory', name, factory: value as (settings: CoderSettings) => CoderAdapterV1 };
    }
    if (isRegistration(value)) return { form: 'registration', name, registration: value };
    return { form: 'adapter', name, adapter: value };
  }
  return undefined;
}

/** A `CoderRegistrationV1` by shape: what a registry needs to route and load it. */
function isRegistration(value: unknown): value is CoderRegistrationV1<CoderSettings> {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    candidate.specificationVersion === undefined &&
    typeof candidate.id === 'string' &&
    typeof candidate.load === 'function'
  );
}
