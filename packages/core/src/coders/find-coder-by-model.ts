import type { CoderRegistration } from './coder-registration.js';

/**
 * How a model string routes to a coder, as found by `findCoderByModel`.
 *
 * - `namespace`: the string starts with the coder's `modelPrefix`. It names that coder's own model, so the
 *   prefix is stripped (`acme-cli/large` → `large`); an empty rest (`acme-cli/`) leaves the model to the
 *   coder's default.
 * - `bare-name`: the string starts with one of the coder's `bareModelPrefixes`. It stays a plain model,
 *   unchanged, usable by the judges as well.
 */
export type CoderModelMatch =
  | {
      readonly kind: 'namespace';
      readonly registration: CoderRegistration;
      /** The matched namespace, with its slash. */
      readonly prefix: string;
      /** The model for the coder with the namespace removed; `undefined` when nothing followed it. */
      readonly coderModel: string | undefined;
    }
  | {
      readonly kind: 'bare-name';
      readonly registration: CoderRegistration;
      /** The matched beginning of the name. */
      readonly prefix: string;
      /** The model string unchanged. */
      readonly coderModel: string;
    };

/**
 * Finds the coder a model string routes to (SPEC §4.3 step 4): registered namespaces first, longest first,
 * then bare-name beginnings, longest first. Returns `undefined` when no registration claims the string.
 *
 * Called by `resolveCoderName` (which coder runs) and `resolveModels` (does `-m` set a coder's model or the
 * judging model?), so both read the model string the same way.
 */
export function findCoderByModel(
  model: string,
  registrations: readonly CoderRegistration[],
): CoderModelMatch | undefined {
  const namespaces = registrations
    .flatMap((registration) =>
      registration.modelPrefix === undefined ? [] : [{ registration, prefix: registration.modelPrefix }],
    )
    .sort(longestPrefixFirst);
  for (const { registration, prefix } of namespaces) {
    if (model.startsWith(prefix)) {
      const rest = model.slice(prefix.length);
      return { kind: 'namespace', registration, prefix, coderModel: rest === '' ? undefined : rest };
    }
  }

  const bareNames = registrations
    .flatMap((registration) =>
      (registration.bareModelPrefixes ?? []).map((prefix) => ({ registration, prefix })),
    )
    .sort(longestPrefixFirst);
  for (const { registration, prefix } of bareNames) {
    if (model.startsWith(prefix)) return { kind: 'bare-name', registration, prefix, coderModel: model };
  }
  return undefined;
}

/** Longest prefix first; equal lengths in a stable alphabetical order so the result never depends on input order. */
function longestPrefixFirst(left: { prefix: string }, right: { prefix: string }): number {
  return right.prefix.length - left.prefix.length || left.prefix.localeCompare(right.prefix);
}
