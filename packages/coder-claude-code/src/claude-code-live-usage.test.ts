import { readFileSync } from 'node:fs';
import type { CoderV1Event, CoderV1Usage } from '@snodo/coder-sdk';
import { type CreateFakeCliOptions, createFakeCli } from '@snodo/conformance/fake-cli';
import { createTemporaryRun, isolateGitConfiguration, type TemporaryRun } from '@snodo/conformance/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClaudeCodeCoder } from './claude-code-adapter.js';
import { ClaudeCodeLiveUsage } from './claude-code-live-usage.js';

// The stream of 2.1.332 (fixture): two model responses, msg_fake_1 (twice, one event per content block)
// and msg_fake_4, before the `result` event with the session's totals.
const stream = readFileSync(
  new URL('./__fixtures__/claude-code-stream-json-2.1.332.jsonl', import.meta.url),
  'utf8',
);

describe('ClaudeCodeLiveUsage', () => {
  it('sums each model response once as it arrives, whatever the chunk boundaries', () => {
    const live = new ClaudeCodeLiveUsage();
    const reports: CoderV1Usage[] = [];
    for (let start = 0; start < stream.length; start += 97) {
      const usage = live.push(stream.slice(start, start + 97));
      if (usage !== undefined) reports.push(usage);
    }
    // One report per new response (the repeated block of msg_fake_1 adds nothing).
    expect(reports).toEqual([
      {
        inputTokens: 400,
        outputTokens: 1,
        cachedInputTokens: 800,
        // msg_fake_1 wrote 300 tokens to the cache: counted apart, so they are priced at the write rate.
        cacheWriteTokens: 300,
        costUsd: null,
        source: 'estimated',
        model: 'claude-sonnet-4-5',
      },
      {
        inputTokens: 800,
        outputTokens: 2,
        cachedInputTokens: 1900,
        cacheWriteTokens: 300,
        costUsd: null,
        source: 'estimated',
        model: 'claude-sonnet-4-5',
      },
    ]);
  });

  it('adds each response once to running totals, so a long session reports exact sums', () => {
    // 1,000 responses, each printed twice (two content blocks), each writing 2 tokens to the cache.
    const live = new ClaudeCodeLiveUsage();
    let last: CoderV1Usage | undefined;
    for (let index = 0; index < 1000; index += 1) {
      const line = `${JSON.stringify({
        type: 'assistant',
        message: {
          id: `msg_${index}`,
          model: 'claude-sonnet-4-5',
          usage: {
            input_tokens: 10,
            cache_creation_input_tokens: 2,
            cache_read_input_tokens: 5,
            output_tokens: 1,
          },
        },
      })}\n`;
      last = live.push(line) ?? last;
      expect(live.push(line)).toBeUndefined();
    }
    expect(last).toEqual({
      inputTokens: 12_000,
      outputTokens: 1000,
      cachedInputTokens: 5000,
      cacheWriteTokens: 2000,
      costUsd: null,
      source: 'estimated',
      model: 'claude-sonnet-4-5',
    });
  });

  it('leaves cacheWriteTokens out when no response wrote to the cache', () => {
    const live = new ClaudeCodeLiveUsage();
    const usage = live.push(
      `${JSON.stringify({
        type: 'assistant',
        message: { id: 'msg_1', usage: { input_tokens: 7, output_tokens: 1, cache_read_input_tokens: 3 } },
      })}\n`,
    );
    expect(usage).toEqual({
      inputTokens: 7,
      outputTokens: 1,
      cachedInputTokens: 3,
      costUsd: null,
      source: 'estimated',
    });
  });
});

let restoreGit: () => void;
let run: TemporaryRun;
beforeAll(() => {
  restoreGit = isolateGitConfiguration();
});
afterAll(() => restoreGit());
beforeEach(() => {
  run = createTemporaryRun();
});
afterEach(() => run.cleanup());

describe('the Claude Code coder while it runs', () => {
  it('reports usage so far after each model response, before the result', { timeout: 30_000 }, async () => {
    // Printed in two writes, the second starting with the second model response.
    const split = stream.indexOf('{"type":"assistant","message":{"id":"msg_fake_4"');
    const scenario: CreateFakeCliOptions['scenario'] = {
      steps: [
        { writeFile: { path: 'greeting.txt', content: 'hello\n' } },
        { stdout: stream.slice(0, split) },
        { stdout: stream.slice(split) },
      ],
    };
    createFakeCli({
      directory: run.binDirectory,
      name: 'claude',
      version: '2.1.332 (Claude Code)',
      scenario,
    });
    const events: CoderV1Event[] = [];
    const result = await createClaudeCodeCoder().doRun(
      run.request({
        credentials: { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789abcdef' },
        overrides: { emit: (event) => events.push(event) },
      }),
    );
    const usage = events.flatMap((event) => (event.type === 'usage' ? [event.usage] : []));
    // The two writes usually reach the adapter as two chunks (400 so far, then 800); a loaded machine may
    // deliver them as one (800 at once). Chunk boundaries themselves are covered by the test above.
    expect([[400, 800], [800]]).toContainEqual(usage.map((entry) => entry.inputTokens));
    // The cache writes reach the job's budget as such, to be priced at the cache-write rate.
    expect(usage.at(-1)?.cacheWriteTokens).toBe(300);
    // The result's totals replace the running estimate.
    expect(result.usage).toMatchObject({
      inputTokens: 800,
      outputTokens: 85,
      cacheWriteTokens: 300,
      source: 'reported',
    });
  });
});
