import { type CoderAdapterV1, CoderUnknownError } from '@snodo/coder-sdk';
import { checkCoderAdapter } from './check-coder-adapter.js';
import { checkCoderRegistrations } from './check-coder-registrations.js';
import type { CoderRegistration, CoderSettings } from './coder-registration.js';

/** What `createCoderRegistry` needs. */
export interface CoderRegistryOptions {
  /** Every coder this run may use: the CLI's built-in ones plus those declared in config. */
  readonly registrations: readonly CoderRegistration[];
  /** The coder used when nothing else selects one (SPEC §4.3 step 5). Must be registered. */
  readonly defaultCoderId: string;
  /** The coder `--mock` selects (step 1). Must be registered when given; without it `--mock` is refused. */
  readonly mockCoderId?: string;
  /** The `coders` section of config: each coder's entry is handed to its `load`. */
  readonly settings?: Readonly<Record<string, CoderSettings | undefined>>;
}

/**
 * The coders a run can choose from, by id. Built once per run by whoever composes snodo (the CLI, an
 * embedder) and passed into core, which reads routing facts from it and never names a coder itself.
 */
export interface CoderRegistry {
  /** The id used when nothing selects a coder. */
  readonly defaultCoderId: string;
  /** The id `--mock` selects, when a mock coder is registered. */
  readonly mockCoderId: string | undefined;
  /** Every registration, in registration order; reading it loads no coder. */
  list(): readonly CoderRegistration[];
  /** `true` when `id` is registered. */
  has(id: string): boolean;
  /**
   * The static registration of `id`, without loading it.
   * @throws {CoderUnknownError} listing the registered ids.
   */
  registration(id: string): CoderRegistration;
  /**
   * The loaded, checked adapter for `id`. The registration's `load` runs on the first call only (concurrent
   * callers share it); a failed load is not cached, so a retry after fixing the cause works.
   * @throws {CoderUnknownError} for an unregistered id.
   * @throws {CoderSpecificationUnsupportedError} when the loaded value is not a coder-v1 adapter.
   * @throws whatever `load` throws (`CoderNotInstalledError` for a missing package…).
   * @throws {CoderRegistrationInvalidError} when the adapter's id or kind disagrees with its registration.
   */
  get(id: string): Promise<CoderAdapterV1>;
}

/**
 * Builds the coder registry. Checks every registration up front (ids, prefixes, default and mock ids) and
 * loads nothing: coders are imported only by `get`.
 *
 * @throws {CoderRegistrationInvalidError} for an ambiguous or incomplete set of registrations.
 */
export function createCoderRegistry(options: CoderRegistryOptions): CoderRegistry {
  const registrations = [...options.registrations];
  checkCoderRegistrations(registrations, options.defaultCoderId, options.mockCoderId);
  const byId = new Map(registrations.map((registration) => [registration.id, registration]));
  const loads = new Map<string, Promise<CoderAdapterV1>>();

  const registration = (id: string): CoderRegistration => {
    const found = byId.get(id);
    if (found === undefined) {
      throw new CoderUnknownError({ requestedId: id, registeredIds: [...byId.keys()] });
    }
    return found;
  };

  const load = async (found: CoderRegistration): Promise<CoderAdapterV1> => {
    const settings = options.settings?.[found.id] ?? {};
    return checkCoderAdapter(await found.load(settings), found);
  };

  return {
    defaultCoderId: options.defaultCoderId,
    mockCoderId: options.mockCoderId,
    list: () => registrations,
    has: (id) => byId.has(id),
    registration,
    get: async (id) => {
      const found = registration(id);
      const cached = loads.get(id);
      if (cached !== undefined) return cached;
      const pending = load(found);
      loads.set(id, pending);
      pending.catch(() => {
        if (loads.get(id) === pending) loads.delete(id);
      });
      return pending;
    },
  };
}
