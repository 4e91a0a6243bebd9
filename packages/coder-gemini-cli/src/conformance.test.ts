import { readFileSync } from 'node:fs';
import { describeCoderConformance } from '@snodo/conformance';
import { createGeminiCliCoder } from './gemini-cli-adapter.js';

/** stream-json of a real Gemini CLI 0.61.0 run against the fake LLM (see COMPAT.md). */
const liveStreamJson = readFileSync(
  new URL('./__fixtures__/gemini-cli-0.61.0.stream.jsonl', import.meta.url),
  'utf8',
);

describeCoderConformance((options) => createGeminiCliCoder(options), {
  fakeCli: { versionOutput: '0.61.0\n', usageOutput: liveStreamJson },
});
