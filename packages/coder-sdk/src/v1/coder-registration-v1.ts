import type { CoderAdapterV1, CoderV1Kind } from './coder-v1.js';

/**
 * One coder as a registry knows it before loading it, version 1: the facts a CLI needs to route a model,
 * list coders and explain how to install one, plus a lazy `load`. Each coder package exports one (from its
 * `/registration` subpath, a module with no other code), and its adapter class reads its `id`,
 * `displayName`, `modelPrefix` and `installHint` from it, so each fact exists once.
 *
 * `Settings` is what `load` is given: the coder's `coders.<id>` config entry (core's `CoderSettings`).
 */
export interface CoderRegistrationV1<Settings = Readonly<Record<string, unknown>>> {
  /** The coder's id: kebab case, unique in a registry, what users type after `--coder`. */
  readonly id: string;
  /** The human name used in every message about this coder. */
  readonly displayName: string;
  /** Whether snodo writes and commits the change (`engine-managed`) or the coder does (`in-place`). */
  readonly kind: CoderV1Kind;
  /**
   * The model namespace that routes to this coder, with its trailing slash (`acme-cli/`). A model string
   * starting with it selects this coder and the rest of the string becomes the coder's model. The longest
   * registered prefix wins, so `acme-cli/x` picks `acme-cli/` over `acme/`.
   */
  readonly modelPrefix?: string;
  /**
   * Beginnings of plain model names that route to this coder when no namespace matched (`acme` routes
   * `acme-large-2`). The model string is not stripped: it stays a plain model, usable by the judges too.
   * Longest match first.
   */
  readonly bareModelPrefixes?: readonly string[];
  /**
   * For engine-managed coders only: the coder codes with the plain judging model when no coder-specific
   * model is set. In-place coders never receive a plain judging model, so a registry refuses this flag on
   * them.
   */
  readonly usesJudgingModel?: boolean;
  /** One line telling a user how to install what this coder needs; shown before the coder is loaded. */
  readonly installHint: string;
  /**
   * Builds the adapter, with this coder's `coders.<id>` config entry (`{}` when there is none). It imports
   * the coder's code dynamically: that import is what keeps `snodo --help` and routing fast.
   */
  readonly load: (settings: Settings) => Promise<CoderAdapterV1> | CoderAdapterV1;
}
