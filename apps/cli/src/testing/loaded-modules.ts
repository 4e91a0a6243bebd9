import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CliFixture, SnodoResult } from './cli-fixture.js';

// Test support only: which modules a command of the built binary loads, recorded by an ES module loader
// hook (every `import` and `import()` resolves through it), so a test can pin what a command never loads.

/** Runs `snodo <args>` in `fixture` and returns its result and the URL of every module it resolved. */
export async function loadedModules(
  fixture: CliFixture,
  args: readonly string[],
): Promise<{ result: SnodoResult; modules: string[] }> {
  const record = join(fixture.directory, 'loaded-modules.txt');
  const hooks = join(fixture.directory, 'record-modules.mjs');
  const register = join(fixture.directory, 'register-record-modules.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(record)}, resolved.url + '\\n');
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
    env: { NODE_OPTIONS: `--import=${pathToFileURL(register).href}` },
  });
  return { result, modules: readFileSync(record, 'utf8').split('\n').filter(Boolean) };
}
