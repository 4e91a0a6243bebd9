import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** A coder package found on disk. */
export interface ResolvedCoderPackage {
  /** The package's directory (`…/node_modules/snodo-coder-x`). */
  readonly directory: string;
  /** The ES module file to import: the package's `import` entry. */
  readonly entry: string;
  /**
   * The package's `./registration` subpath export, when it has one: by the SDK's convention a module with
   * only the coder's facts and a lazy `load`, cheaper to import than the whole adapter.
   */
  readonly registrationEntry?: string;
}

/**
 * Finds an installed npm package the way Node would from `directories` (each in turn: the repository
 * first, then e.g. the CLI's own install directory, whose parent `node_modules` holds globally installed
 * packages), and picks its ES module entry. Returns `undefined` when no directory can see it.
 *
 * NOTE: `createRequire(...).resolve()` resolves with the `require` condition, which an ESM-only package
 * (exports with only `import`, the house style of snodo-coder-* packages) does not offer, and Node 20's
 * `import.meta.resolve` cannot start from another directory. So the package directory is located through
 * require's search paths and the entry is read from its package.json, honouring `exports` conditions
 * `import`, `node`, `default` for the package root, then `main`, then `index.js`.
 */
export function resolveCoderPackage(
  packageName: string,
  directories: readonly string[],
): ResolvedCoderPackage | undefined {
  for (const directory of directories) {
    const searchPaths = createRequire(join(directory, 'package.json')).resolve.paths(packageName) ?? [];
    for (const nodeModules of searchPaths) {
      const packageDirectory = join(nodeModules, packageName);
      const manifestPath = join(packageDirectory, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
      const registration = subpathEntry(manifest, './registration');
      return {
        directory: packageDirectory,
        entry: join(packageDirectory, packageEntry(manifest)),
        ...(registration === undefined ? {} : { registrationEntry: join(packageDirectory, registration) }),
      };
    }
  }
  return undefined;
}

/** The root entry of a package, relative to its directory, for an `import()`. */
function packageEntry(manifest: Record<string, unknown>): string {
  const exportsField = manifest.exports;
  const root =
    exportsField !== null && typeof exportsField === 'object' && !Array.isArray(exportsField)
      ? rootExport(exportsField as Record<string, unknown>)
      : exportsField;
  const fromExports = pickCondition(root);
  if (fromExports !== undefined) return fromExports;
  return typeof manifest.main === 'string' ? manifest.main : 'index.js';
}

/** A subpath export (`./registration`) of a package, relative to its directory; `undefined` without one. */
function subpathEntry(manifest: Record<string, unknown>, subpath: string): string | undefined {
  const exportsField = manifest.exports;
  if (exportsField === null || typeof exportsField !== 'object' || Array.isArray(exportsField))
    return undefined;
  return pickCondition((exportsField as Record<string, unknown>)[subpath]);
}

/** `exports` is either the root's conditions directly, or a map of subpaths whose `.` is the root. */
function rootExport(exportsField: Record<string, unknown>): unknown {
  const keys = Object.keys(exportsField);
  return keys.some((key) => key.startsWith('.')) ? exportsField['.'] : exportsField;
}

/** Follows `import` → `node` → `default` conditions (nested or in arrays) down to a file path. */
function pickCondition(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const item of target) {
      const picked = pickCondition(item);
      if (picked !== undefined) return picked;
    }
    return undefined;
  }
  if (target === null || typeof target !== 'object') return undefined;
  const conditions = target as Record<string, unknown>;
  for (const condition of ['import', 'node', 'default']) {
    const picked = pickCondition(conditions[condition]);
    if (picked !== undefined) return picked;
  }
  return undefined;
}
