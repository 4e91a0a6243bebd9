#!/usr/bin/env node
// Lays out a new workspace package in the house shape (STYLE.md): package.json, README.md, CHANGELOG.md,
// LICENSE (the repository's), tsconfig.json, tsup.config.ts, src/index.ts. Usage: node scripts/new-package.mjs <dir> <npm name> "<description>"
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const [dir, name, description] = process.argv.slice(2);
if (!dir || !name || !description) {
  console.error('usage: node scripts/new-package.mjs <dir> <npm name> "<description>"');
  process.exit(2);
}
if (existsSync(join(dir, 'package.json'))) {
  console.error(`${dir}/package.json exists already; nothing written`);
  process.exit(2);
}
mkdirSync(join(dir, 'src'), { recursive: true });
const depth = dir.split('/').filter(Boolean).length;
const up = '../'.repeat(depth);
const pkg = {
  name,
  version: '0.1.0',
  description,
  license: 'MIT',
  type: 'module',
  sideEffects: false,
  exports: {
    './package.json': './package.json',
    // `default` lets `require()` load the ES module on Node >= 20.19 (require(esm)).
    '.': { types: './dist/index.d.ts', import: './dist/index.js', default: './dist/index.js' },
  },
  main: './dist/index.js',
  types: './dist/index.d.ts',
  files: ['dist', 'README.md', 'CHANGELOG.md', 'LICENSE'],
  engines: { node: '>=20.19' },
  publishConfig: { access: 'public' },
  repository: { type: 'git', url: 'git+https://github.com/snodo-dev/snodo.git', directory: dir },
  scripts: {
    build: 'tsup',
    typecheck: 'tsc --noEmit -p tsconfig.json',
    test: 'vitest run',
    'check:package': 'publint --strict && attw --pack . --profile esm-only',
  },
  dependencies: {},
};
writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
writeFileSync(
  join(dir, 'tsconfig.json'),
  `${JSON.stringify({ extends: `${up}tsconfig.base.json`, include: ['src', '*.ts'] }, null, 2)}\n`,
);
writeFileSync(
  join(dir, 'tsup.config.ts'),
  `import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});
`,
);
writeFileSync(join(dir, 'README.md'), `# ${name}\n\n${description}\n`);
writeFileSync(join(dir, 'CHANGELOG.md'), `# ${name}\n`);
copyFileSync(join(root, 'LICENSE'), join(dir, 'LICENSE'));
writeFileSync(join(dir, 'src/index.ts'), `export {};\n`);
console.log(`created ${dir} (${name})`);
