import { describeCoderConformance } from '@snodo/conformance';
import { type FakeLlmTurn, startFakeLlm } from '@snodo/conformance/fake-llm';
import { afterAll } from 'vitest';
import { createLitellmCoder, createProviderPinnedCoder } from './litellm-adapter.js';

// The Tier 1 suite for every direct coder, against one fake LLM. Each run that reaches the model takes one
// scripted write; if the script runs short, the fake's final text is a JSON file list the coder still reads.
const write: FakeLlmTurn = {
  writeFile: { path: 'conformance.txt', content: 'written by the conformance run\n' },
};
const fake = await startFakeLlm({
  script: Array.from({ length: 24 }, () => write),
  finalText: JSON.stringify([{ path: 'conformance.txt', content: 'written by the conformance run\n' }]),
});
afterAll(() => fake.close());

describeCoderConformance(() => createLitellmCoder(), {
  coderConfig: {
    model: 'fake/conformance-model',
    providers: { fake: { base_url: fake.sdkBaseUrl.openai } },
    max_retries: 0,
  },
});

describeCoderConformance(() => createProviderPinnedCoder('openai'), {
  coderConfig: {
    model: 'gpt-4o',
    providers: { openai: { base_url: fake.sdkBaseUrl.openai } },
    max_retries: 0,
  },
});

describeCoderConformance(() => createProviderPinnedCoder('anthropic'), {
  coderConfig: {
    model: 'claude-sonnet-4-5',
    providers: { anthropic: { base_url: fake.sdkBaseUrl.anthropic } },
    max_retries: 0,
  },
});

describeCoderConformance(() => createProviderPinnedCoder('gemini'), {
  coderConfig: {
    model: 'gemini-2.5-pro',
    providers: { gemini: { base_url: fake.sdkBaseUrl.gemini } },
    max_retries: 0,
  },
});
