import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The binary is bundled (tsup.config.ts): whatever its chunks still import or require by name is resolved
// from the installed `snodo` package at run time, so it must be one of that package's dependencies. Under
// pnpm's strict layout a missing one fails only when its code path runs (the AI SDK's provider-utils
// requires `undici` by name deep inside a fetch): this reads the built chunks and fails at once.

const dist = join(import.meta.dirname, '..', 'dist');
const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

/** Every bare specifier in the chunks: static and dynamic imports, and `require`-like calls of a literal. */
function bareSpecifiers(source: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"'./][^"']*)["']/gm,
    /^\s*import\s*["']([^"'./][^"']*)["']/gm,
    /\bimport\(\s*["']([^"'./][^"']*)["']\s*\)/g,
    /\b\w*[Rr]equire\w*\(\s*["']([^"'./][^"']*)["']\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] as string));
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}

describe('the bundled binary', () => {
  it('imports by name only what the snodo package depends on (or Node itself)', () => {
    const builtins = new Set(builtinModules);
    const chunks = readdirSync(dist).filter((file) => file.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(10);
    const undeclared = new Map<string, string>();
    const seen = new Set<string>();
    for (const chunk of chunks) {
      for (const specifier of bareSpecifiers(readFileSync(join(dist, chunk), 'utf8'))) {
        if (specifier.startsWith('node:') || builtins.has(specifier) || builtins.has(packageOf(specifier)))
          continue;
        const name = packageOf(specifier);
        seen.add(name);
        if (manifest.dependencies[name] === undefined) undeclared.set(name, chunk);
      }
    }
    // The scan finds what is known to stay outside the bundle, so a scan that saw nothing cannot pass.
    expect([...seen]).toEqual(expect.arrayContaining(['bullmq', 'undici', '@modelcontextprotocol/server']));
    expect(Object.fromEntries(undeclared)).toEqual({});
  });
});
