import { CoderConfigInvalidError } from '@snodo/coder-sdk';
import type { CoderRegistration, CoderSettings } from './coder-registration.js';
import {
  type CommandCoderAdapterFactory,
  createCommandCoderRegistration,
} from './command-coder-registration.js';
import { createPackageCoderRegistration } from './package-coder-registration.js';

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
 * The CLI appends the result to its built-in registrations before `createCoderRegistry`, which refuses an
 * id or model prefix that collides with a built-in one.
 *
 * @throws {CoderConfigInvalidError} (`CODER_CONFIG_INVALID`) for an entry with both `package` and `command`, or a key of
 *   the wrong type.
 */
export function createConfigCoderRegistrations(
  options: ConfigCoderRegistrationsOptions,
): CoderRegistration[] {
  const registrations: CoderRegistration[] = [];
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
      registrations.push(
        createCommandCoderRegistration({
          ...common,
          command: settings.command,
          ...(options.createCommandAdapter === undefined
            ? {}
            : { createAdapter: options.createCommandAdapter }),
        }),
      );
      continue;
    }

    if (typeof settings.package !== 'string' || settings.package.trim() === '') {
      throw invalid('package', 'it must be an npm package name, like snodo-coder-mine');
    }
    if (settings.kind !== undefined && settings.kind !== 'in-place' && settings.kind !== 'engine-managed') {
      throw invalid('kind', 'it must be in-place or engine-managed');
    }
    registrations.push(
      createPackageCoderRegistration({
        ...common,
        packageName: settings.package.trim(),
        resolveFrom: options.resolveFrom,
        ...(settings.kind === undefined ? {} : { kind: settings.kind }),
      }),
    );
  }
  return registrations;
}

/** A setting that must be text when present. */
function optionalString(value: unknown, invalid: () => Error): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid();
  return value;
}
