import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@snodo/core',
    include: ['src/**/*.test.ts'],
    // Pipeline tests run whole jobs in temporary repositories with real git and real sandboxes: dozens of
    // processes each, so a test takes seconds, and more on a loaded 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
