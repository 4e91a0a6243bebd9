import { pathToFileURL } from 'node:url';
import { type CoderAdapterV1, CoderNotInstalledError, type CoderV1Kind, SnodoError } from '@snodo/coder-sdk';
import { CoderPackageInvalidError } from './coder-package-invalid-error.js';
import type { CoderRegistration, CoderSettings } from './coder-registration.js';
import { type CoderExport, findCoderExport } from './find-coder-export.js';
import { resolveCoderPackage } from './resolve-coder-package.js';

/** What `createPackageCoderRegistration` and `loadPackageCoderRegistration` need. */
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
  /** Config `display_name`: overrides the package's own display name. */
  readonly displayName?: string;
  /** Config `kind`: overrides (and is checked against) the package's kind. */
  readonly kind?: CoderV1Kind;
  /** Config `model_prefix`: overrides the package's model namespace. */
  readonly modelPrefix?: string;
}

/**
 * A registration for a third-party coder published on npm and named in config
 * (`coders: { mine: { package: "snodo-coder-mine" } }`), without importing it: its metadata comes from
 * config and defaults (`<id>`, `in-place`, `<id>/`). `loadPackageCoderRegistration` is the same with the
 * package's own metadata. `load` finds the package from `resolveFrom`, imports it (its `./registration`
 * subpath first, when it exports one), takes the first of `registration`, `default`, `createCoder`,
 * `coder` it exports and builds the adapter from it; the registry then checks the result.
 *
 * @throws {CoderNotInstalledError} from `load`, naming the `npm install` command, when the package is
 *   nowhere to be found.
 * @throws {CoderPackageInvalidError} from `load` when the package is installed but cannot be imported or
 *   exports none of those names.
 */
export function createPackageCoderRegistration(options: PackageCoderRegistrationOptions): CoderRegistration {
  const { id } = options;
  return {
    id,
    displayName: options.displayName ?? id,
    kind: options.kind ?? 'in-place',
    modelPrefix: options.modelPrefix ?? `${id}/`,
    installHint: installHint(options.packageName),
    load: async (settings: CoderSettings) =>
      adapterFrom(await importCoderExport(options), settings, options.packageName, id),
  };
}

/**
 * The registration of a package coder with its metadata from the package itself: the `registration`
 * export's `displayName`, `kind`, `modelPrefix`, `bareModelPrefixes` and `installHint`, or those of the
 * adapter a `default`/`createCoder`/`coder` export gives (a factory is called once here, with the config
 * entry, and its adapter is what `load` returns). Config's `display_name`, `model_prefix` and `kind` still
 * win when set. Called once per command when the project opens, so routing by the package's own model
 * prefix works before the coder is used.
 *
 * Never throws: a package that is missing or broken gets the config-and-defaults registration, whose
 * `load` reports the problem when the coder is actually needed (so one broken coder cannot break
 * `snodo coders` or a run with another coder).
 */
export async function loadPackageCoderRegistration(
  options: PackageCoderRegistrationOptions,
  settings: CoderSettings,
): Promise<CoderRegistration> {
  const fallback = createPackageCoderRegistration(options);
  let coderExport: CoderExport;
  try {
    coderExport = await importCoderExport(options);
  } catch {
    return fallback;
  }
  const overrides = {
    id: options.id,
    ...(options.displayName === undefined ? {} : { displayName: options.displayName }),
    ...(options.modelPrefix === undefined ? {} : { modelPrefix: options.modelPrefix }),
    ...(options.kind === undefined ? {} : { kind: options.kind }),
  };
  if (coderExport.form === 'registration') {
    const { registration } = coderExport;
    return {
      ...fallback,
      ...pickMetadata(registration),
      ...(registration.bareModelPrefixes === undefined
        ? {}
        : { bareModelPrefixes: registration.bareModelPrefixes }),
      ...(registration.usesJudgingModel === undefined
        ? {}
        : { usesJudgingModel: registration.usesJudgingModel }),
      ...overrides,
      load: (loadSettings) => adapterFrom(coderExport, loadSettings, options.packageName, options.id),
    };
  }
  let adapter: unknown;
  try {
    adapter = await adapterFrom(coderExport, settings, options.packageName, options.id);
  } catch {
    return fallback;
  }
  let first = true;
  return {
    ...fallback,
    ...pickMetadata(adapter),
    ...overrides,
    load: async (loadSettings) => {
      // The adapter built for the metadata is the first one used; a reload (after a failed check) builds anew.
      if (first) {
        first = false;
        return adapter as CoderAdapterV1;
      }
      return adapterFrom(coderExport, loadSettings, options.packageName, options.id);
    },
  };
}

/** The routing facts an adapter or registration states about itself, the well-typed ones only. */
function pickMetadata(
  value: unknown,
): Partial<Pick<CoderRegistration, 'displayName' | 'modelPrefix' | 'kind' | 'installHint'>> {
  if (typeof value !== 'object' || value === null) return {};
  const source = value as Record<string, unknown>;
  const text = (key: string) =>
    typeof source[key] === 'string' && source[key] !== '' ? (source[key] as string) : undefined;
  const kind = source.kind === 'in-place' || source.kind === 'engine-managed' ? source.kind : undefined;
  return {
    ...(text('displayName') === undefined ? {} : { displayName: text('displayName') }),
    ...(text('modelPrefix') === undefined ? {} : { modelPrefix: text('modelPrefix') }),
    ...(text('installHint') === undefined ? {} : { installHint: text('installHint') }),
    ...(kind === undefined ? {} : { kind }),
  };
}

/**
 * Builds the adapter from what the package exports; the registry checks it. A plain error thrown by the
 * package's own `load` or factory becomes `CODER_PACKAGE_INVALID` (installed, but broken); a snodo error
 * (a missing key, a missing CLI) passes through as the package meant it.
 */
async function adapterFrom(
  coderExport: CoderExport,
  settings: CoderSettings,
  packageName: string,
  coderId: string,
): Promise<CoderAdapterV1> {
  try {
    if (coderExport.form === 'registration') return await coderExport.registration.load(settings);
    if (coderExport.form === 'factory') return await coderExport.factory(settings);
    return coderExport.adapter as CoderAdapterV1;
  } catch (error) {
    if (SnodoError.isInstance(error)) throw error;
    throw new CoderPackageInvalidError({
      coderId,
      packageName,
      problem: {
        kind: 'load-failed',
        exportName: coderExport.name,
        reason: error instanceof Error ? error.message : String(error),
      },
      cause: error,
    });
  }
}

/**
 * Resolves and imports the package, and finds its coder: in the `./registration` subpath first (a module
 * that, by the SDK's convention, holds only the facts and a lazy `load`), then in the package's root.
 */
async function importCoderExport(options: PackageCoderRegistrationOptions): Promise<CoderExport> {
  const { id, packageName } = options;
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
  const exported: string[] = [];
  for (const entry of [found.registrationEntry, found.entry]) {
    if (entry === undefined) continue;
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
    } catch (error) {
      throw new CoderPackageInvalidError({
        coderId: id,
        packageName,
        problem: {
          kind: 'import-failed',
          entry,
          reason: error instanceof Error ? error.message : String(error),
        },
        cause: error,
      });
    }
    const coderExport = findCoderExport(module);
    if (coderExport !== undefined) return coderExport;
    exported.push(...Object.keys(module).filter((name) => !exported.includes(name)));
  }
  throw new CoderPackageInvalidError({
    coderId: id,
    packageName,
    problem: { kind: 'exports-no-coder', exportedNames: exported },
  });
}

/** The install command, for the repository or next to a global snodo. */
function installHint(packageName: string): string {
  return `Run \`npm install ${packageName}\` in the repository, or \`npm install -g ${packageName}\``;
}
