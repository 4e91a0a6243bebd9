import { defineConfig } from 'tsup';

export default defineConfig({
  // `jobs` and `paths` are lean doors for commands that must start fast (`snodo task list`, `config path`):
  // they share chunks with `index`, and nothing they reach imports zod, yaml or the pipeline.
  entry: { index: 'src/index.ts', jobs: 'src/jobs.ts', paths: 'src/paths.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});
