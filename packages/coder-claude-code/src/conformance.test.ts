import { readFileSync } from 'node:fs';
import { describeCoderConformance } from '@snodo/conformance';
import { createClaudeCodeCoder } from './claude-code-adapter.js';

// Tier 1: the stand-in `claude` answers the version probe like Claude Code 2.1.332 and ends every normal
// run with the stream-json output a live 2.1.332 run printed (init, messages, result with usage).
describeCoderConformance((options) => createClaudeCodeCoder(options), {
  fakeCli: {
    versionOutput: '2.1.332 (Claude Code)',
    usageOutput: readFileSync(
      new URL('./__fixtures__/claude-code-stream-json-2.1.332.jsonl', import.meta.url),
      'utf8',
    ),
  },
  model: 'claude-sonnet-4-5',
});
