import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/fake-llm/index.ts', 'src/fake-cli/index.ts', 'src/test-kit/index.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  // The kit registers tests in the adapter author's own vitest: never bundle a second copy.
  external: ['vitest', '@snodo/coder-sdk'],
});
