import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  // `cli` is the `snodo` binary; `index` is the library entry (the built-in coder catalog, exit codes,
  // `--json` schemas). Each command's action is a dynamic import, so it lands in its own chunk and
  // `snodo --help` loads none of them.
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  splitting: true,
  target: 'node20',
  platform: 'node',
  define: { __SNODO_CLI_VERSION__: JSON.stringify(version) },
  // The start-up path is bundled: resolving commander's CommonJS files through the ESM loader cost more than
  // the code itself (measured in bench/cli.bench.mjs). Commander requires Node built-ins, which ESM output
  // can only do through a real `require`, hence the banner.
  noExternal: ['commander', '@commander-js/extra-typings', 'picocolors'],
  banner: {
    js: "import { createRequire as __snodoCreateRequire } from 'node:module'; const require = __snodoCreateRequire(import.meta.url);",
  },
});
