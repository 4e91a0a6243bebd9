import { pathToFileURL } from 'node:url';
import { type CoderAdapterV1, CoderNotInstalledError, type CoderV1Kind } from '@snodo/coder-sdk';
import { CoderRegistrationInvalidError } from '../errors.js';
import type { CoderRegistration, CoderSettings } from './coder-registration.js';
import { resolveCoderPackage } from './resolve-coder-package.js';

/** What `createPackageCoderRegistration` needs. */
export interface PackageCoderRegistrationOptions {
  /** The coder id (the config key under `coders`); the loaded adapter must report the same id. */
  readonly id: string;
  /** The npm package that provides the coder (`snodo-coder-mine`). */
  readonly packageName: string;
  /**
   * Where to look for the package, in order: the repository root first, then e.g. the CLI's install
   * directory (whose enclosing `node_modules` holds globally installed packages).
   */
  readonly resolveFrom: readonly string[];
  /** The human name shown before the coder is loaded; defaults to the id. */
  readonly displayName?: string;
  /** The kind promised before loading; checked against the adapter. Defaults to `in-place`. */
  readonly kind?: CoderV1Kind;
  /** The model namespace routing to this coder; defaults to `<id>/`. */
  readonly modelPrefix?: string;
}

/** The export names tried, in order, for the coder: an adapter object or a factory returning one. */
const exportNames = ['default', 'createCoder', 'coder'] as const;

/**
 * A registration for a third-party coder published on npm and named in config
 * (`coders: { mine: { package: "snodo-coder-mine" } }`). Its metadata comes from config and defaults, so
 * listing and routing import nothing; `load` finds the package from `resolveFrom`, imports it, and takes
 * its default export, else a `createCoder` or `coder` export: either a `CoderAdapterV1` or a function that
 * receives the coder's config entry and returns (or resolves to) one. The registry then checks the result.
 *
 * @throws {CoderNotInstalledError} from `load`, naming the `npm install` command when the package
 *   is nowhere to be found.
 * @throws {CoderRegistrationInvalidError} from `load` when the package exports none of those names.
 */
export function createPackageCoderRegistration(options: PackageCoderRegistrationOptions): CoderRegistration {
  const { id, packageName } = options;
  return {
    id,
    displayName: options.displayName ?? id,
    kind: options.kind ?? 'in-place',
    modelPrefix: options.modelPrefix ?? `${id}/`,
    installHint: installHint(packageName),
    load: async (settings: CoderSettings) => {
      const found = resolveCoderPackage(packageName, options.resolveFrom);
      if (found === undefined) {
        throw new CoderNotInstalledError({
          coderId: id,
          displayName: options.displayName ?? id,
          installHint: installHint(packageName),
          reason:
            `its npm package ${packageName} (config coders.${id}.package) was found in none of ` +
            options.resolveFrom.join(', '),
        });
      }
      const module = (await import(pathToFileURL(found.entry).href)) as Record<string, unknown>;
      const exportName = exportNames.find((name) => module[name] !== undefined && module[name] !== null);
      if (exportName === undefined) {
        throw new CoderRegistrationInvalidError({
          coderId: id,
          message:
            `The package ${packageName} (config coders.${id}.package) exports no coder: snodo looks for a ` +
            `default export, or an export named createCoder or coder, holding a coder-v1 adapter or a ` +
            `function returning one. It exports: ${Object.keys(module).join(', ') || '(nothing)'}.`,
        });
      }
      const exported = module[exportName];
      // The registry checks the value (specification, id, kind) before anyone uses it.
      return (typeof exported === 'function' ? await exported(settings) : exported) as CoderAdapterV1;
    },
  };
}

/** The install command, for the repository or next to a global snodo. */
function installHint(packageName: string): string {
  return `Run \`npm install ${packageName}\` in the repository, or \`npm install -g ${packageName}\``;
}
