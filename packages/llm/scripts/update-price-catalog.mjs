#!/usr/bin/env node
// Rebuilds src/price-catalog.json from the model table that @mariozechner/pi-ai ships
// (dist/models.generated.js, generated from models.dev and OpenRouter). The package is 139 MB, so it is
// installed into a temporary directory for the run and never becomes a dependency.
//
// Usage: node scripts/update-price-catalog.mjs [--pi-ai-version 0.73.1]
// Then review the diff of src/price-catalog.json and commit it.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const DEFAULT_VERSION = '0.73.1';
const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const outputPath = join(packageRoot, 'src', 'price-catalog.json');

// Providers that are reached only through a subscription login (no API key and no per-token price to
// pay), so their rows would only mislead `snodo models`.
const EXCLUDED_PROVIDERS = new Set(['github-copilot', 'openai-codex']);

const FIELDS = [
  'provider',
  'id',
  'input',
  'output',
  'cacheRead',
  'cacheWrite',
  'contextWindow',
  'maxOutputTokens',
];

function readVersion(argv) {
  const index = argv.indexOf('--pi-ai-version');
  if (index === -1) return DEFAULT_VERSION;
  const value = argv[index + 1];
  if (value === undefined || !/^\d+\.\d+\.\d+$/.test(value)) {
    throw new Error('--pi-ai-version needs an exact version, e.g. --pi-ai-version 0.73.1');
  }
  return value;
}

/** A finite, non-negative number, or null; prices in the table are USD per million tokens. */
function price(value) {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

function count(value) {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

function buildRows(models) {
  const rows = [];
  for (const [provider, table] of Object.entries(models)) {
    if (EXCLUDED_PROVIDERS.has(provider)) continue;
    for (const [id, model] of Object.entries(table)) {
      const input = price(model.cost?.input);
      const output = price(model.cost?.output);
      // A row without both main prices cannot price a call; leave it out rather than guess.
      if (input === null || output === null) continue;
      rows.push([
        provider,
        id,
        input,
        output,
        price(model.cost?.cacheRead) ?? input,
        price(model.cost?.cacheWrite) ?? input,
        count(model.contextWindow),
        count(model.maxTokens),
      ]);
    }
  }
  // Code-unit order, not locale order, so every machine writes the same file.
  const key = (row) => `${row[0]}\u0000${row[1]}`;
  rows.sort((left, right) => (key(left) < key(right) ? -1 : key(left) > key(right) ? 1 : 0));
  return rows;
}

/** One model per line, so a refresh shows up in review as a readable diff. */
function serialise(catalog) {
  const { models, ...header } = catalog;
  const headerLines = Object.entries(header).map(
    ([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},`,
  );
  const rowLines = models.map(
    (row, index) => `    ${JSON.stringify(row)}${index < models.length - 1 ? ',' : ''}`,
  );
  return `{\n${headerLines.join('\n')}\n  "models": [\n${rowLines.join('\n')}\n  ]\n}\n`;
}

function formatWithBiome(path) {
  // The repository formats JSON with Biome; format the fresh file the same way so lint stays green.
  const biome = join(packageRoot, '..', '..', 'node_modules', '.bin', 'biome');
  if (!existsSync(biome)) {
    console.warn('biome not found; run `pnpm exec biome format --write` on the catalog before committing');
    return;
  }
  execFileSync(biome, ['format', '--write', path], { stdio: 'inherit' });
}

async function main() {
  const version = readVersion(process.argv.slice(2));
  const temporary = mkdtempSync(join(tmpdir(), 'snodo-price-catalog-'));
  try {
    console.log(`installing @mariozechner/pi-ai@${version} into ${temporary} (temporary)…`);
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        temporary,
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        `@mariozechner/pi-ai@${version}`,
      ],
      { stdio: 'inherit' },
    );
    const tablePath = join(
      temporary,
      'node_modules',
      '@mariozechner',
      'pi-ai',
      'dist',
      'models.generated.js',
    );
    const { MODELS } = await import(pathToFileURL(tablePath).href);
    if (MODELS === null || typeof MODELS !== 'object')
      throw new Error(`${tablePath} exports no MODELS table`);

    const models = buildRows(MODELS);
    const catalog = {
      generatedAt: new Date().toISOString().slice(0, 10),
      source: `@mariozechner/pi-ai@${version} dist/models.generated.js (data from models.dev and OpenRouter)`,
      attribution:
        'Model data from models.dev (https://models.dev, MIT License, Copyright (c) 2025 spin.dev) and ' +
        'OpenRouter, as packaged in @mariozechner/pi-ai from pi-mono (https://github.com/badlogic/pi-mono, MIT).',
      unit: 'USD per million tokens',
      fields: FIELDS,
      models,
    };
    writeFileSync(outputPath, serialise(catalog));
    formatWithBiome(outputPath);
    const providers = new Set(models.map((row) => row[0]));
    console.log(`wrote ${models.length} models from ${providers.size} providers to ${outputPath}`);
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}

await main();
