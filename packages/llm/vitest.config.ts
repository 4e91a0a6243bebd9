import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@snodo/llm',
    include: ['src/**/*.test.ts'],
    // NOTE: the AI SDK prints call warnings to the console through a global, not an environment variable.
    setupFiles: ['./src/testing/silence-ai-sdk-warnings.ts'],
  },
});
