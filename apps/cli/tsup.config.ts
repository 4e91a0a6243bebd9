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
  // The start-up path is bundled: snodo's own packages and the libraries every command loads (zod's ~95
  // files, yaml, execa, simple-git, the AI SDK, commander) go into these chunks, because resolving and
  // reading several hundred small files through the ESM loader cost more than the code itself: ~170 ms of
  // every `snodo run` before the job starts (bench/startup.bench.mjs; ARCHITECTURE "One bundle for the
  // command"). tsup bundles everything that is not a dependency of this package, so `noExternal` lists only
  // the dependencies bundled anyway. The other dependencies stay outside, loaded by name at run time: a
  // coder's implementation (its bundled `/registration` imports it by a variable), undici (the AI SDK's
  // provider-utils requires it by name), the queue's clients, the MCP server; an optional `@ai-sdk/<name>`
  // provider is found from the project. Those bring their own copies of what they import; snodo's packages
  // tell their types apart by `Symbol.for` markers, never by `instanceof`.
  // CommonJS inside the bundle (commander, simple-git) requires Node built-ins, which ESM output can only
  // do through a real `require`, hence the banner.
  noExternal: [
    /^@snodo\/(audit|core|foundation|llm|coder-sdk|queue)(\/.*)?$/,
    /^@snodo\/coder-[a-z-]+\/registration$/,
    /^zod(\/.*)?$/,
    'yaml',
    'commander',
    '@commander-js/extra-typings',
    'picocolors',
  ],
  // Snodo's packages declare `sideEffects: false`, so esbuild drops the bare imports their own chunk
  // splitting left behind (chunk load order, no code) and warns about each; the drop is what we want.
  // The maps name each bundled file and line (stack traces, the tests of what a command loads) without
  // carrying the libraries' sources: with them the package held 9 MB of maps.
  esbuildOptions(options) {
    options.logOverride = { ...options.logOverride, 'ignored-bare-import': 'silent' };
    options.sourcesContent = false;
  },
  banner: {
    js: "import { createRequire as __snodoCreateRequire } from 'node:module'; const require = __snodoCreateRequire(import.meta.url);",
  },
});
