import { CoderRegistrationInvalidError } from '../errors.js';
import type { CoderRegistration } from './coder-registration.js';

/** Kebab case: lower-case letters and digits in dash-separated words, the shape `--coder` accepts. */
const coderIdPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Refuses a set of registrations that would make routing ambiguous or silently wrong: a malformed or
 * duplicate id, a model prefix without its trailing slash or claimed twice, a bare-name beginning claimed
 * twice, `usesJudgingModel` on an in-place coder, or a default/mock coder id that is not registered.
 *
 * Called once by `createCoderRegistry`, so a bad registration fails at start-up with the coder's id in the
 * message instead of routing a task to the wrong coder later.
 *
 * @throws {CoderRegistrationInvalidError}
 */
export function checkCoderRegistrations(
  registrations: readonly CoderRegistration[],
  defaultCoderId: string,
  mockCoderId: string | undefined,
): void {
  const ids = new Set<string>();
  const prefixOwners = new Map<string, string>();
  const bareOwners = new Map<string, string>();

  for (const registration of registrations) {
    const { id } = registration;
    if (!coderIdPattern.test(id)) {
      fail(id, `Coder id '${id}' is not kebab case (lower-case words joined by dashes, like 'my-coder').`);
    }
    if (ids.has(id)) {
      fail(id, `Coder id '${id}' is registered twice. Each coder needs its own id; rename one of them.`);
    }
    ids.add(id);
    if (typeof registration.load !== 'function') {
      fail(id, `Coder '${id}' has no load function, so it can never be started.`);
    }
    if (registration.kind === 'in-place' && registration.usesJudgingModel === true) {
      fail(
        id,
        `Coder '${id}' is in-place but sets usesJudgingModel: in-place coders run on their own model ` +
          'and never receive the judging model. Remove the flag or make the coder engine-managed.',
      );
    }

    const prefix = registration.modelPrefix;
    if (prefix !== undefined) {
      if (!/^[^\s/][^\s]*\/$/.test(prefix)) {
        fail(
          id,
          `Coder '${id}' has model prefix '${prefix}'; a model prefix is a word ending in '/', like '${id}/'.`,
        );
      }
      const owner = prefixOwners.get(prefix);
      if (owner !== undefined) {
        fail(
          id,
          `Model prefix '${prefix}' is claimed by both '${owner}' and '${id}'; give one another prefix.`,
        );
      }
      prefixOwners.set(prefix, id);
    }

    for (const bare of registration.bareModelPrefixes ?? []) {
      if (bare === '')
        fail(id, `Coder '${id}' claims an empty bare model prefix, which would match every model.`);
      const owner = bareOwners.get(bare);
      if (owner !== undefined) {
        fail(id, `Bare model prefix '${bare}' is claimed by both '${owner}' and '${id}'; drop one of them.`);
      }
      bareOwners.set(bare, id);
    }
  }

  const listed = [...ids].join(', ') || '(none)';
  if (!ids.has(defaultCoderId)) {
    fail(defaultCoderId, `The default coder '${defaultCoderId}' is not registered. Registered: ${listed}.`);
  }
  if (mockCoderId !== undefined && !ids.has(mockCoderId)) {
    fail(mockCoderId, `The mock coder '${mockCoderId}' is not registered. Registered: ${listed}.`);
  }
}

function fail(coderId: string, message: string): never {
  throw new CoderRegistrationInvalidError({ coderId, message });
}
