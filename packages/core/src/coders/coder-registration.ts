import type { CoderRegistrationV1, CoderV1Kind } from '@snodo/coder-sdk';

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
 * A coder as the registry knows it before it is loaded: the SDK's `CoderRegistrationV1` (static metadata
 * plus a lazy factory, exported by each coder package), with `load` given the coder's `CoderSettings`.
 *
 * Routing (`resolveCoderName`), model resolution (`resolveModels`) and listing (`snodo coders`) read only
 * this metadata, so they never import a coder package; `load` runs only when the coder is actually needed.
 * Whoever registers coders (the CLI for the built-in ones, config for third-party ones) supplies every
 * routing fact here: core's own source names no coder. `installHint` is optional here: a coder declared
 * in config may not have one.
 */
export interface CoderRegistration extends Omit<CoderRegistrationV1<CoderSettings>, 'installHint'> {
  /** One line telling a user how to install what this coder needs; shown before the coder is loaded. */
  readonly installHint?: string;
}
