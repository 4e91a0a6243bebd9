import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One vitest run over every package, so the whole suite ends in one summary. Each package may add its own
 * `vitest.config.ts`; the projects glob picks it up. `repo` holds the checks on the repository itself.
 */
export default defineConfig({
  test: {
    // Most test files wait on git, real CLIs and sandboxes rather than the CPU; vitest's default (one worker
    // fewer than the cores) leaves a 2-core CI machine running one file at a time.
    maxWorkers: availableParallelism() + 1,
    projects: ['packages/*', 'apps/*', { test: { name: 'repo', include: ['scripts/**/*.test.ts'] } }],
    reporters: ['default', './scripts/plain-summary-reporter.ts'],
  },
});
