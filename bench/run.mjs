#!/usr/bin/env node
// `pnpm bench`: runs every bench/*.bench.mjs in turn (or those named on the command line) and prints
// each figure as a ratio against a baseline measured in the same run. Each bench module exports
// `default async function ({ report, tmpdir })`; `report(name, { value, unit, baseline, baselineName, aim })`
// prints one line. Timings live here, never in tests.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir as systemTmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const benchDir = import.meta.dirname;
const wanted = process.argv.slice(2);
const files = readdirSync(benchDir)
  .filter((file) => file.endsWith('.bench.mjs'))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.includes(name)))
  .sort();

const rows = [];
function format(value, unit) {
  if (unit === 'ms') return `${value.toFixed(1)} ms`;
  if (unit === 'MB') return `${value.toFixed(1)} MB`;
  if (unit === 'ops/s') return `${Math.round(value).toLocaleString('en-US')} ops/s`;
  return `${value} ${unit}`;
}
function report(name, { value, unit, baseline, baselineName, aim, higherIsBetter = false }) {
  let line = `${name}: ${format(value, unit)}`;
  if (baseline !== undefined) {
    const ratio = higherIsBetter ? baseline / value : value / baseline;
    line += ` vs ${baselineName} ${format(baseline, unit)} → ${ratio.toFixed(2)}×`;
    if (aim !== undefined) line += ` (aim ≤ ${aim}×: ${ratio <= aim ? 'met' : 'NOT met'})`;
  } else if (aim !== undefined) {
    line += ` (aim ${aim})`;
  }
  rows.push(line);
  console.log(line);
}

for (const file of files) {
  const dir = mkdtempSync(join(systemTmpdir(), `snodo-bench-${basename(file, '.bench.mjs')}-`));
  console.log(`\n# ${file}`);
  try {
    const module = await import(pathToFileURL(join(benchDir, file)).href);
    await module.default({ report, tmpdir: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`\n# summary\n${rows.join('\n')}`);
