import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LlmProviderNotInstalledError } from './errors.js';

/** A loaded provider module: its exports, looked up by name. */
export type ProviderModule = Readonly<Record<string, unknown>>;

/**
 * Imports the optional AI SDK package for `provider` (`@ai-sdk/groq` for `groq`). A plain `import()` from
 * this package comes first; when that cannot see the package (pnpm keeps each package's dependencies
 * private, so an app's own `@ai-sdk/groq` is invisible from here), the package is resolved from each
 * directory in `resolveFrom`, the app's directory first.
 *
 * @throws {LlmProviderNotInstalledError} when no location has the package. Any other failure while loading
 *   a package that exists (a syntax error, a missing dependency of its own) propagates as is.
 */
export async function loadProviderPackage(
  provider: string,
  resolveFrom: readonly string[],
): Promise<ProviderModule> {
  const packageName = `@ai-sdk/${provider}`;
  let lastMiss: unknown;
  try {
    return (await import(packageName)) as ProviderModule;
  } catch (error) {
    if (!isMissingPackage(error, packageName)) throw error;
    lastMiss = error;
  }
  for (const directory of resolveFrom) {
    let entry: string;
    try {
      entry = createRequire(join(directory, 'package.json')).resolve(packageName);
    } catch (error) {
      if (!isMissingPackage(error, packageName)) throw error;
      lastMiss = error;
      continue;
    }
    return (await import(pathToFileURL(entry).href)) as ProviderModule;
  }
  throw new LlmProviderNotInstalledError({ provider, packageName, cause: lastMiss });
}

/**
 * Finds the provider factory in a loaded module: `createGroq` for `groq`, `createDeepSeek` for `deepseek`,
 * `createAmazonBedrock` for `amazon-bedrock` (names compared without case and dashes), else the only
 * `create*` function the module exports.
 */
export function findProviderFactory(
  module: ProviderModule,
  provider: string,
): ((settings: Record<string, unknown>) => unknown) | undefined {
  const wanted = `create${provider.replace(/[^a-z0-9]/gi, '')}`.toLowerCase();
  const factories = Object.entries(module).filter(
    ([name, value]) => name.startsWith('create') && typeof value === 'function',
  );
  const exact = factories.find(([name]) => name.toLowerCase() === wanted);
  const chosen = exact ?? (factories.length === 1 ? factories[0] : undefined);
  return chosen?.[1] as ((settings: Record<string, unknown>) => unknown) | undefined;
}

/** `true` when `error` says `packageName` itself is missing, not one of its own imports. */
function isMissingPackage(error: unknown, packageName: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
  return missing && typeof message === 'string' && message.includes(`'${packageName}'`);
}
