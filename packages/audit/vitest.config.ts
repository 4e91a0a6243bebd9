import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@snodo/audit',
    include: ['src/**/*.test.ts'],
  },
});
