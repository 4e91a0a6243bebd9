import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'snodo',
    include: ['src/**/*.test.ts'],
    // Tests drive the built binary in temporary repositories: each command is a real process and a real
    // git, so a test takes seconds, not milliseconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
