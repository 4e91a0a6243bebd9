import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MockCoderAdapterV1 } from '@snodo/coder-sdk/test';
import { type FakeLlm, type FakeLlmRecordedRequest, startFakeLlm } from '@snodo/conformance/fake-llm';
import { lookupPrice } from '@snodo/llm';
import { afterEach, describe, expect, it } from 'vitest';
import { readJobState } from '../jobs/index.js';
import { createPipelineFixture, type PipelineFixture, registrationFor } from '../testing/pipeline-fixture.js';

// Four post-execute judges (three reviewers and the protocol-adherence judge) on one change, against the
// real fake LLM with prompt caching on: they must share one byte-identical prefix, put the cache
// breakpoint (Anthropic) or the cache key (OpenAI) on the wire, and the job must record and price the
// cache reads and writes.

const protocol = (warm: boolean) => `protocol_id: cache
name: Cache protocol
initial_mode: build
modes:
  - mode_id: build
    name: Build
    tools: [edit]
    validators: [security, architecture, testing, adherence]
  - mode_id: docs
    name: Docs
    tools: [write_docs]
    validators: [adherence]
validators:
  - validator_id: security
    validator_type: security
    evaluation_phase: post_execute
    criteria: [No credentials are added.]
  - validator_id: architecture
    validator_type: architecture
    evaluation_phase: post_execute
    criteria: [The module boundaries hold.]
  - validator_id: testing
    validator_type: testing
    evaluation_phase: post_execute
    criteria: [The change is covered by tests.]
  - validator_id: adherence
    validator_type: protocol
    evaluation_phase: post_execute
disagreement_policy: unanimous
execution:
  max_fix_attempts: 0
  warm_judge_cache: ${warm}
`;

const PASS = { verdict: { severity: 'pass', justification: 'fine', findings: [] } };

/** About 20 KB of code, so the shared prefix is well over the 1,024 tokens providers cache from. */
const bigFile = Array.from(
  { length: 400 },
  (_, index) => `export const value${index} = ${index}; // a line of the change`,
).join('\n');

let fixture: PipelineFixture | undefined;
let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  fixture?.cleanup();
  fixture = undefined;
  llm = undefined;
});

async function runFourJudges(provider: 'anthropic' | 'openai', warm = true) {
  // Each answer takes a moment, as a model's does, so judges started together are in flight together.
  const turn = { ...PASS, delayMs: 200 };
  llm = await startFakeLlm({ promptCache: true, script: [turn, turn, turn, turn] });
  fixture = createPipelineFixture({ protocol: protocol(warm) });
  const coder = new MockCoderAdapterV1({
    id: 'writer',
    doRun: {
      status: 'changed',
      proposals: [{ path: 'src/values.ts', action: 'write', content: `${bigFile}\n` }],
      changedFiles: ['src/values.ts'],
      usage: null,
      durationMs: 1,
    },
  });
  const baseUrl = provider === 'anthropic' ? llm.sdkBaseUrl.anthropic : llm.sdkBaseUrl.openai;
  mkdirSync(fixture.snodoHome, { recursive: true });
  writeFileSync(
    join(fixture.snodoHome, 'config.yml'),
    `providers:\n  ${provider}:\n    base_url: ${baseUrl}\n    api_key: test-key-123456\n`,
    { mode: 0o600 },
  );
  const model = provider === 'anthropic' ? 'anthropic/claude-sonnet-4-5' : 'openai/gpt-4o';
  const { result } = await fixture.run({
    task: 'add the value table',
    coder: 'writer',
    model,
    extraCoders: [registrationFor(coder)],
  });
  expect(llm.problems).toEqual([]);
  expect(result).toMatchObject({ status: 'done', outcome: 'merged' });
  return { result, requests: llm.mainRequests(), state: readJobState(fixture.root, result.jobId), model };
}

interface AnthropicPart {
  type: string;
  text: string;
  cache_control?: unknown;
}

function userParts(request: FakeLlmRecordedRequest | undefined): AnthropicPart[] {
  const body = request?.body as { messages: { content: AnthropicPart[] }[] };
  return body.messages[0]?.content ?? [];
}

describe('judges of one phase share a cached prompt prefix', () => {
  it('Anthropic: four judges send one byte-identical prefix with a breakpoint after it; one writes, three read', async () => {
    const { requests, state, model } = await runFourJudges('anthropic');
    expect(requests).toHaveLength(4);
    const prefixes = requests.map((request) => userParts(request)[0]?.text);
    expect(prefixes[0]).toContain('export const value399 = 399;');
    expect(new Set(prefixes).size).toBe(1);
    const systems = requests.map((request) => JSON.stringify((request.body as { system: unknown }).system));
    expect(new Set(systems).size).toBe(1);
    for (const request of requests) {
      expect(userParts(request)[0]?.cache_control).toEqual({ type: 'ephemeral' });
      expect(userParts(request)[1]?.cache_control).toBeUndefined();
    }
    // The per-judge parts come after the prefix, and they differ.
    const suffixes = requests.map((request) => userParts(request)[1]?.text ?? '');
    expect(new Set(suffixes).size).toBe(4);
    expect(suffixes.join('\n')).toContain('security reviewer');
    expect(suffixes.join('\n')).toContain('### Docs (docs)');
    expect(prefixes[0]).not.toContain('### Docs (docs)');

    // Warmed: the first judge wrote the prefix before the others started, and they read it.
    const [warm, ...rest] = requests.map((request) => request.promptCache);
    const written = warm?.writeTokens ?? 0;
    expect(written).toBeGreaterThan(4_000);
    expect(rest.map((account) => [account?.readTokens, account?.writeTokens])).toEqual([
      [written, 0],
      [written, 0],
      [written, 0],
    ]);

    // Recorded per role and priced with the catalog's cache prices.
    const judges = state.usage.judges;
    expect(judges).toMatchObject({ cachedInputTokens: 3 * written, cacheWriteTokens: written, calls: 4 });
    const price = lookupPrice(model)?.price;
    if (!price) throw new Error(`no catalog price for ${model}`);
    let expected = 0;
    for (const request of requests) {
      const account = request.promptCache;
      if (!account) throw new Error('no cache account');
      const plain = account.promptTokens - account.readTokens - account.writeTokens;
      expected +=
        (plain * price.input +
          account.writeTokens * price.cacheWrite +
          account.readTokens * price.cacheRead +
          20 * price.output) /
        1_000_000;
    }
    expect(judges?.costUsd).toBeCloseTo(expected, 9);
    expect(judges?.inputTokens).toBe(
      requests.reduce(
        (sum, request) =>
          sum + (request.promptCache?.promptTokens ?? 0) - (request.promptCache?.readTokens ?? 0),
        0,
      ),
    );
  }, 60_000);

  it('Anthropic with warm_judge_cache: false: the judges start together and each writes the prefix', async () => {
    const { requests, state } = await runFourJudges('anthropic', false);
    const writes = requests.map((request) => request.promptCache?.writeTokens ?? 0);
    expect(writes.filter((tokens) => tokens > 4_000)).toHaveLength(4);
    expect(state.usage.judges?.cacheWriteTokens).toBeGreaterThan(writes[0] ?? 0);
  }, 60_000);

  it('OpenAI: every judge sends the same prompt_cache_key (job and diff) and the repeats are read from cache', async () => {
    const { requests, result, state } = await runFourJudges('openai');
    const keys = requests.map((request) => (request.body as { prompt_cache_key?: string }).prompt_cache_key);
    expect(keys[0]).toMatch(new RegExp(`^snodo-${result.jobId}-[0-9a-f]{16}$`));
    expect(new Set(keys).size).toBe(1);
    const reads = requests.map((request) => request.promptCache?.readTokens ?? 0);
    expect(reads[0]).toBe(0);
    for (const read of reads.slice(1)) expect(read).toBeGreaterThan(4_000);
    expect(state.usage.judges?.cachedInputTokens).toBe(reads.reduce((sum, read) => sum + read, 0));
    expect(state.usage.judges?.cacheWriteTokens).toBeUndefined();
  }, 60_000);
});
