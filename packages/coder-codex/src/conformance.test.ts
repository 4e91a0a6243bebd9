import { readFileSync } from 'node:fs';
import { describeCoderConformance } from '@snodo/conformance';
import { createCodexCoder } from './codex-adapter.js';

// Tier 1: the stand-in `codex` answers the version probe like Codex 0.171.0 and ends every normal run with
// the JSON lines a live 0.171.0 run printed (thread.started … turn.completed with usage).
describeCoderConformance((options) => createCodexCoder(options), {
  fakeCli: {
    versionOutput: 'codex-cli 0.171.0',
    usageOutput: readFileSync(
      new URL('./__fixtures__/codex-exec-json-0.171.0.jsonl', import.meta.url),
      'utf8',
    ),
  },
  model: 'gpt-5.5',
});
