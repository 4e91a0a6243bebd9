import { readFileSync } from 'node:fs';
import { describeCoderConformance } from '@snodo/conformance';
import { createOpencodeCliCoder } from './opencode-cli-adapter.js';

/** `--format json` events of a real OpenCode 1.18.33 run against the fake LLM (see COMPAT.md). */
const liveEvents = readFileSync(new URL('./__fixtures__/opencode-1.18.33.jsonl', import.meta.url), 'utf8');

describeCoderConformance((options) => createOpencodeCliCoder(options), {
  fakeCli: { versionOutput: '1.18.33\n', usageOutput: liveEvents },
  model: 'conformance-provider/conformance-model',
});
