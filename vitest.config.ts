import { defineConfig } from 'vitest/config';

/**
 * One vitest run over every package, so the whole suite ends in one summary. Each package may add its own
 * `vitest.config.ts`; the projects glob picks it up. `repo` holds the checks on the repository itself.
 */
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', { test: { name: 'repo', include: ['scripts/**/*.test.ts'] } }],
    reporters: ['default', './scripts/plain-summary-reporter.ts'],
  },
});
