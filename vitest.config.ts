import { availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowestFirstSequencer from './scripts/slowest-first-sequencer.js';

const repositoryRoot = dirname(fileURLToPath(import.meta.url));
// NOTE: `pnpm --filter <pkg> test` runs `vitest run` in the package directory, and vitest then finds this
// file by searching upward: paths here would resolve against the package, not the repository. So the
// reporter is an absolute path, and a run started inside one package runs that package's project only.
const startedIn = relative(repositoryRoot, process.cwd());
const insidePackage = startedIn !== '' && !startedIn.startsWith('..');

/**
 * One vitest run over every package, so the whole suite ends in one summary. Each package may add its own
 * `vitest.config.ts`; the projects glob picks it up. `repo` holds the checks on the repository itself.
 */
export default defineConfig({
  test: {
    // Most test files wait on git, real CLIs and sandboxes rather than the CPU; vitest's default (one worker
    // fewer than the cores) leaves a 2-core CI machine running one file at a time.
    maxWorkers: availableParallelism() + 1,
    projects: insidePackage
      ? [process.cwd()]
      : ['packages/*', 'apps/*', { test: { name: 'repo', include: ['scripts/**/*.test.ts'] } }],
    reporters: ['default', join(repositoryRoot, 'scripts/plain-summary-reporter.ts')],
    // The slow files first, whatever their project: see scripts/slowest-first-sequencer.ts.
    sequence: { sequencer: SlowestFirstSequencer },
  },
});
