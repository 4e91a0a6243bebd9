import {
  assertCoderAdapterV1,
  type CoderAdapterV1,
  CoderSpecificationUnsupportedError,
} from '@snodo/coder-sdk';
import { CoderRegistrationInvalidError } from '../errors.js';
import type { CoderRegistration } from './coder-registration.js';

/**
 * Checks that what a registration's `load` produced is a `coder-v1` adapter for that same coder: the
 * contract's shape as the SDK defines it (tag and members, never `instanceof`, so adapters built without
 * the SDK's base classes or against another copy of it work), then the id and kind the registration
 * promised — routing and model resolution already relied on those before the coder was loaded.
 *
 * Called by `CoderRegistry.get` on every freshly loaded adapter.
 *
 * @throws {CoderSpecificationUnsupportedError} for anything that is not a complete coder-v1 adapter.
 * @throws {CoderRegistrationInvalidError} when the adapter's id or kind differs from its registration.
 */
export function checkCoderAdapter(value: unknown, registration: CoderRegistration): CoderAdapterV1 {
  const { id } = registration;
  try {
    assertCoderAdapterV1(value);
  } catch (error) {
    // A value without a usable id cannot say which coder it was; the registration can.
    if (CoderSpecificationUnsupportedError.isInstance(error) && error.coderId === undefined) {
      error.message = `Loading coder "${id}": ${error.message}`;
    }
    throw error;
  }
  if (value.id !== id) {
    throw new CoderRegistrationInvalidError({
      coderId: id,
      message:
        `Coder '${id}' loaded an adapter whose id is '${value.id}'. The registration and the adapter must ` +
        `agree; for a coder from config, rename the config key coders.${id} to coders.${value.id}.`,
    });
  }
  if (value.kind !== registration.kind) {
    throw new CoderRegistrationInvalidError({
      coderId: id,
      message:
        `Coder '${id}' is registered as ${registration.kind} but its adapter is ${value.kind}. ` +
        `For a coder from config, set coders.${id}.kind: ${value.kind}.`,
    });
  }
  return value;
}
