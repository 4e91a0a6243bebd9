import type { CoderAdapterV1, CoderV1Kind } from '@snodo/coder-sdk';

/**
 * One coder's entry under `coders.<id>` in snodo's config (`$SNODO_HOME/config.yml`), as the registry hands
 * it to the coder's factory. Keys are the config file's own snake_case names.
 *
 * Built-in coders read `binary`, `model`, `timeout_seconds` and `env`; third-party coders declared in config
 * also use `package` or `command` (and optionally `display_name`, `kind`, `model_prefix`). Unknown keys are
 * passed through so a coder may define its own.
 */
export interface CoderSettings {
  /** Path of the coder's executable when it is not on PATH. */
  readonly binary?: string;
  /** The coder's default model when no namespaced `-m` names one (the CLI's own default otherwise). */
  readonly model?: string;
  /** Wall-clock limit for one run of this coder, in seconds. */
  readonly timeout_seconds?: number;
  /** Extra environment variables for this coder's process. */
  readonly env?: Readonly<Record<string, string>>;
  /** The npm package that provides this coder (a third-party coder). */
  readonly package?: string;
  /** A command template (argv with `{prompt}`, `{model}`, `{workspace}` placeholders) that is this coder. */
  readonly command?: readonly string[];
  /** The human name of a coder declared in config; defaults to its id. */
  readonly display_name?: string;
  /** The kind of a package coder declared in config; defaults to `in-place`. */
  readonly kind?: CoderV1Kind;
  /** The model namespace of a coder declared in config; defaults to `<id>/`. */
  readonly model_prefix?: string;
  /** Anything else a coder chooses to read from its own config entry. */
  readonly [key: string]: unknown;
}

/**
 * A coder as the registry knows it before it is loaded: static metadata plus a lazy factory.
 *
 * Routing (`resolveCoderName`), model resolution (`resolveModels`) and listing (`snodo coders`) read only
 * this metadata, so they never import a coder package; `load` runs only when the coder is actually needed.
 * Whoever registers coders (the CLI for the built-in ones, config for third-party ones) supplies every
 * routing fact here: core's own source names no coder.
 */
export interface CoderRegistration {
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
   * `acme-large-2`). The model string is not stripped: it stays a plain model, usable by the judges too. An
   * entry may carry a provider namespace (`acme-cloud/`) a coder wants to claim. Longest match first.
   */
  readonly bareModelPrefixes?: readonly string[];
  /**
   * For engine-managed coders only: the coder codes with the plain model (`-m`, else `llm.coder.model`,
   * else `model` from config) when no coder-specific model is set. In-place coders never receive a plain
   * judging model, so the registry refuses this flag on them.
   */
  readonly usesJudgingModel?: boolean;
  /** One line telling a user how to install what this coder needs; shown before the coder is loaded. */
  readonly installHint?: string;
  /**
   * Builds the adapter. Called by `CoderRegistry.get` at most once per registry (the result is cached),
   * with this coder's `coders.<id>` config entry (`{}` when there is none). It may import the coder's
   * package dynamically; that import is what keeps `snodo --help` and routing fast.
   */
  readonly load: (settings: CoderSettings) => Promise<CoderAdapterV1> | CoderAdapterV1;
}
