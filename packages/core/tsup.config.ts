import { defineConfig } from 'tsup';

export default defineConfig({
  // `jobs`, `paths` and `config` are lean doors for commands that must start fast (`snodo task list`,
  // `config path`, `config get`): they share chunks with `index`; nothing `jobs` or `paths` reaches imports
  // zod, yaml or the pipeline, and `config` reaches only the config file's own schema and YAML parser.
  entry: { index: 'src/index.ts', config: 'src/config.ts', jobs: 'src/jobs.ts', paths: 'src/paths.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
});
