import { CoderConfigInvalidError } from '@snodo/coder-sdk';
import type { CoderRegistration, CoderSettings } from './coder-registration.js';
import {
  type CommandCoderAdapterFactory,
  createCommandCoderRegistration,
} from './command-coder-registration.js';
import {
  createPackageCoderRegistration,
  loadPackageCoderRegistration,
  type PackageCoderRegistrationOptions,
} from './package-coder-registration.js';

/** What `createConfigCoderRegistrations` needs. */
export interface ConfigCoderRegistrationsOptions {
  /** The `coders` section of config, as loaded. */
  readonly coders: Readonly<Record<string, CoderSettings | undefined>> | undefined;
  /** Where package coders are looked for: the repository root first (see `createPackageCoderRegistration`). */
  readonly resolveFrom: readonly string[];
  /** Builds the adapter of a command-template coder; defaults to `createCommandTemplateAdapter`. */
  readonly createCommandAdapter?: CommandCoderAdapterFactory;
}

/**
 * The registrations of the third-party coders declared in config: each `coders.<id>` entry with a
 * `package` becomes a package coder, each with a `command` a command-template coder. Entries with neither
 * only configure a built-in coder (`binary`, `model`, `timeout_seconds`…) and are skipped here.
 *
 * Imports nothing: a package coder's display name, kind and model prefix come from config or defaults.
 * `loadConfigCoderRegistrations` is the same with each package's own metadata.
 *
 * The CLI appends the result to its built-in registrations before `createCoderRegistry`, which refuses an
 * id or model prefix that collides with a built-in one.
 *
 * @throws {CoderConfigInvalidError} (`CODER_CONFIG_INVALID`) for an entry with both `package` and `command`,
 *   a key of the wrong type, or a command template that is unsafe or unusable.
 */
export function createConfigCoderRegistrations(
  options: ConfigCoderRegistrationsOptions,
): CoderRegistration[] {
  return planConfigCoders(options).map((planned) =>
    planned.form === 'package' ? createPackageCoderRegistration(planned.options) : planned.registration,
  );
}

/**
 * `createConfigCoderRegistrations` with each package coder's metadata read from the package itself (its
 * `registration` export, or the adapter it builds; see `loadPackageCoderRegistration`), config's
 * `display_name`, `model_prefix` and `kind` still winning. Imports every package coder declared in config;
 * a missing or broken one falls back to config and defaults and reports its problem when it is used.
 *
 * @throws {CoderConfigInvalidError} as `createConfigCoderRegistrations` does.
 */
export async function loadConfigCoderRegistrations(
  options: ConfigCoderRegistrationsOptions,
): Promise<CoderRegistration[]> {
  return Promise.all(
    planConfigCoders(options).map((planned) =>
      planned.form === 'package'
        ? loadPackageCoderRegistration(planned.options, options.coders?.[planned.options.id] ?? {})
        : planned.registration,
    ),
  );
}

/** One third-party coder from config, checked: a package to find, or a command coder already built. */
type PlannedCoder =
  | { readonly form: 'package'; readonly options: PackageCoderRegistrationOptions }
  | { readonly form: 'command'; readonly registration: CoderRegistration };

/** Reads and checks every third-party `coders.<id>` entry, in config order. */
function planConfigCoders(options: ConfigCoderRegistrationsOptions): PlannedCoder[] {
  const planned: PlannedCoder[] = [];
  for (const [id, settings] of Object.entries(options.coders ?? {})) {
    if (settings === undefined || (settings.package === undefined && settings.command === undefined))
      continue;
    const invalid = (setting: string, problem: string) =>
      new CoderConfigInvalidError({ coderId: id, setting, problem });

    const displayName = optionalString(settings.display_name, () =>
      invalid('display_name', 'it must be text'),
    );
    const modelPrefix = optionalString(settings.model_prefix, () =>
      invalid('model_prefix', `it must be text ending in '/', like '${id}/'`),
    );
    const common = {
      id,
      ...(displayName === undefined ? {} : { displayName }),
      ...(modelPrefix === undefined ? {} : { modelPrefix }),
    };

    if (settings.package !== undefined && settings.command !== undefined) {
      throw invalid('package', 'a coder comes either from a package or from a command, not both; remove one');
    }
    if (settings.command !== undefined) {
      if (!Array.isArray(settings.command)) {
        throw invalid(
          'command',
          'it must be a list: the program, then its arguments with {prompt}, {model}, {workspace}',
        );
      }
      if (settings.kind !== undefined && settings.kind !== 'in-place') {
        throw invalid('kind', 'a command coder edits the worktree itself, so it is always in-place');
      }
      planned.push({
        form: 'command',
        registration: createCommandCoderRegistration({
          ...common,
          command: settings.command,
          credentials: credentialNames(id, settings.credentials),
          ...(options.createCommandAdapter === undefined
            ? {}
            : { createAdapter: options.createCommandAdapter }),
        }),
      });
      continue;
    }
    if (settings.credentials !== undefined) {
      throw invalid(
        'credentials',
        'only a command coder declares its variables in config; a package coder declares them itself',
      );
    }

    if (typeof settings.package !== 'string' || settings.package.trim() === '') {
      throw invalid('package', 'it must be an npm package name, like snodo-coder-mine');
    }
    if (settings.kind !== undefined && settings.kind !== 'in-place' && settings.kind !== 'engine-managed') {
      throw invalid('kind', 'it must be in-place or engine-managed');
    }
    planned.push({
      form: 'package',
      options: {
        ...common,
        packageName: settings.package.trim(),
        resolveFrom: options.resolveFrom,
        ...(settings.kind === undefined ? {} : { kind: settings.kind }),
      },
    });
  }
  return planned;
}

/** An environment variable name as snodo accepts one: what a POSIX shell could export. */
const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `coders.<id>.credentials`: a list of environment variable names (`[ACME_API_KEY]`). */
function credentialNames(id: string, value: unknown): readonly string[] {
  if (value === undefined) return [];
  const names = Array.isArray(value) ? value : undefined;
  const bad = names?.find((name) => typeof name !== 'string' || !variableName.test(name));
  if (names === undefined || bad !== undefined) {
    throw new CoderConfigInvalidError({
      coderId: id,
      setting: 'credentials',
      problem:
        (names === undefined ? 'it must be a list' : `${JSON.stringify(bad)} is not a variable name`) +
        ' of environment variable names, like [ACME_API_KEY]',
    });
  }
  return names as string[];
}

/** A setting that must be text when present. */
function optionalString(value: unknown, invalid: () => Error): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid();
  return value;
}
