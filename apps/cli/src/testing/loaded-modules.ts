import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CliFixture, SnodoResult } from './cli-fixture.js';

// Test support only: which modules a command of the built binary loads, recorded by an ES module loader
// hook (every `import` and `import()` resolves through it), so a test can pin what a command never loads.
// The binary is bundled (tsup.config.ts), so snodo's packages and the libraries they use are inside the
// CLI's own chunks: `sources` looks through each chunk's source map to the files it was built from.

/** What a traced command did: its result, each specifier it imported, and the URL each resolved to. */
export interface LoadedModules {
  readonly result: SnodoResult;
  /** As written in the importing module: `@snodo/core/jobs`, `./chunk-…js`, `node:fs`. */
  readonly specifiers: readonly string[];
  /** Where each import resolved: `file:///…/apps/cli/dist/chunk-…js`, `node:fs`. */
  readonly urls: readonly string[];
  /**
   * The files the loaded code was built from, as absolute paths: a bundled chunk's source-map sources
   * (`/…/packages/core/src/jobs/job-paths.ts`, `/…/node_modules/.pnpm/zod@…/node_modules/zod/…`), a
   * module without a source map as itself. Built-in `node:` modules are left out.
   */
  readonly sources: readonly string[];
}

/** The files a loaded module was built from: its source map's sources, or itself. */
function builtFrom(url: string): string[] {
  if (!url.startsWith('file:')) return [];
  const path = fileURLToPath(url);
  const map = `${path}.map`;
  if (!existsSync(map)) return [path];
  const { sources, sourceRoot = '' } = JSON.parse(readFileSync(map, 'utf8')) as {
    sources: string[];
    sourceRoot?: string;
  };
  return sources.map((source) => resolve(dirname(path), sourceRoot, source));
}

/** Runs `snodo <args>` in `fixture` (or `options.cwd`) under a hook that records every module it resolves. */
export async function loadedModules(
  fixture: CliFixture,
  args: readonly string[],
  options: { readonly cwd?: string } = {},
): Promise<LoadedModules> {
  const record = join(fixture.directory, 'loaded-modules.jsonl');
  const hooks = join(fixture.directory, 'record-modules.mjs');
  const register = join(fixture.directory, 'register-record-modules.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(record)}, JSON.stringify({ specifier, url: resolved.url }) + '\\n');
  return resolved;
}
`,
  );
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  writeFileSync(record, '');
  const result = await fixture.snodo(args, {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: { NODE_OPTIONS: `--import=${pathToFileURL(register).href}` },
  });
  const entries = readFileSync(record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { specifier: string; url: string });
  const urls = entries.map((entry) => entry.url);
  return {
    result,
    specifiers: entries.map((entry) => entry.specifier),
    urls,
    // Each chunk is recorded once per module importing it; its source map is read once.
    sources: [...new Set([...new Set(urls)].flatMap(builtFrom))],
  };
}
