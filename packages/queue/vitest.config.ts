import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@snodo/queue',
    include: ['src/**/*.test.ts'],
    // The distributed tests start redis-server and worker processes of the built CLI.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
