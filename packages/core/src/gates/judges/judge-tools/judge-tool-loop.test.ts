import { startFakeLlm } from '@snodo/conformance/fake-llm';
import { generateVerdict, generateVerdictWithTools, type LlmSettings } from '@snodo/llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestRepository,
  type TestRepository,
  useIsolatedGitConfiguration,
} from '../../../git/test-repository.js';
import type { DiffContext } from '../../constraints/diff-context.js';
import { loadDiffContext } from '../../constraints/load-diff-context.js';
import type { GateValidatorSpec } from '../../gate-validator-spec.js';
import { evaluateJudgeGate } from '../evaluate-judge-gate.js';
import type { GateJudgeFunction } from '../gate-judge-function.js';

// A judge that looks, end to end: a real repository, the real tool loop of @snodo/llm, and the fake LLM
// over HTTP in each provider's own wire format.

let isolation: ReturnType<typeof useIsolatedGitConfiguration>;
let repository: TestRepository;
let diff: DiffContext;

const LIMIT_FILE = 'export const LIMIT = 5; // requests per minute\n';

beforeAll(async () => {
  isolation = useIsolatedGitConfiguration();
  repository = createTestRepository();
  const base = repository.revParse('HEAD');
  repository.commit('add a rate limit', { 'src/limit.ts': LIMIT_FILE, 'src/login.ts': 'login();\n' });
  diff = await loadDiffContext({ cwd: repository.root, baseCommit: base });
});
afterAll(() => {
  repository.cleanup();
  isolation.restore();
});

/** What stage-gates does: a judge with tools runs the loop, one without answers in one completion. */
function judgeWith(settings: LlmSettings): GateJudgeFunction {
  return async (request) => {
    const call = {
      model: request.model,
      system: request.system,
      prompt: request.prompt,
      maxRetries: 0,
      settings,
    };
    const answer =
      request.tools && request.tools.length > 0
        ? await generateVerdictWithTools({ ...call, tools: request.tools, maxTurns: request.maxTurns })
        : await generateVerdict(call);
    return { verdict: answer.verdict, usage: answer.usage, model: answer.model };
  };
}

const security: GateValidatorSpec = {
  validator_id: 'security',
  validator_type: 'security',
  evaluation_phase: 'post_execute',
  criteria: ['Rate limits are reasonable.'],
  tools: ['read_file', 'list_files'],
};

const dialects = [
  {
    name: 'Anthropic Messages',
    model: 'anthropic/claude-sonnet-4-5',
    settings: (url: string): LlmSettings => ({
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
      providers: { anthropic: { base_url: `${url}/v1` } },
    }),
  },
  {
    // No native structured output: the AI SDK adds its `json` tool beside the judge's tools and requires a
    // tool call each turn, so the verdict arrives as a call of that tool.
    name: 'Anthropic Messages with the JSON tool',
    model: 'anthropic/claude-sonnet-4-0',
    settings: (url: string): LlmSettings => ({
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
      providers: { anthropic: { base_url: `${url}/v1` } },
    }),
  },
  {
    name: 'OpenAI Responses',
    model: 'openai/gpt-4o',
    settings: (url: string): LlmSettings => ({
      env: { OPENAI_API_KEY: 'sk-test' },
      providers: { openai: { base_url: `${url}/v1` } },
    }),
  },
  {
    name: 'OpenAI-compatible Chat Completions',
    model: 'judge/judge-model',
    settings: (url: string): LlmSettings => ({
      env: {},
      providers: { judge: { base_url: `${url}/v1`, api_key: 'sk-proxy' } },
    }),
  },
] as const;

describe.each(dialects)('a judge with tools over $name', ({ model, settings }) => {
  it('reads a file before it answers: the recorded call and the verdict both show it, usage sums every turn', async () => {
    const llm = await startFakeLlm({
      script: [
        { toolCall: { name: 'read_file', input: { path: 'src/limit.ts' } } },
        {
          verdict: {
            severity: 'pass',
            justification: 'The limit is fine: {{lastToolResult}}',
            findings: [],
          },
        },
      ],
    });
    try {
      const verdict = await evaluateJudgeGate(security, {
        phase: 'post_execute',
        task: 'add rate limiting',
        diff,
        judge: judgeWith(settings(llm.url)),
        judgeModel: model,
        toolSource: { directory: repository.root, headCommit: diff.headCommit, baseCommit: diff.baseCommit },
      });
      expect(llm.problems).toEqual([]);
      expect(verdict).toMatchObject({ severity: 'pass', error: false });
      expect(verdict.justification).toContain('1: export const LIMIT = 5; // requests per minute');
      expect(verdict.toolCalls).toEqual([
        { tool: 'read_file', input: '{"path":"src/limit.ts"}', ok: true, bytes: expect.any(Number) },
      ]);
      expect(verdict.toolCalls?.[0]?.bytes).toBeGreaterThan(LIMIT_FILE.length);
      const requests = llm.mainRequests();
      expect(requests).toHaveLength(2);
      // The model saw the tools it was granted, and the file's content came back to it as a tool result.
      expect(JSON.stringify(requests[0]?.body)).toContain('list_files');
      expect(JSON.stringify(requests[1]?.body)).toContain('requests per minute');
      // Both turns are paid for: 100 input and 20 output tokens each.
      expect(verdict.usage).toMatchObject({ inputTokens: 200, outputTokens: 40 });
    } finally {
      await llm.close();
    }
  }, 30_000);

  it('refuses a path outside the workspace to the model, which can still answer', async () => {
    const llm = await startFakeLlm({
      script: [
        { toolCall: { name: 'read_file', input: { path: '../../etc/passwd' } } },
        { verdict: { severity: 'warn', justification: 'Could not look: {{lastToolResult}}', findings: [] } },
      ],
    });
    try {
      const verdict = await evaluateJudgeGate(security, {
        phase: 'post_execute',
        task: 'add rate limiting',
        diff,
        judge: judgeWith(settings(llm.url)),
        judgeModel: model,
        toolSource: { directory: repository.root, headCommit: diff.headCommit, baseCommit: diff.baseCommit },
      });
      expect(llm.problems).toEqual([]);
      expect(verdict).toMatchObject({ severity: 'warn', error: false });
      expect(verdict.justification).toContain('is outside the workspace');
      expect(verdict.toolCalls).toEqual([
        expect.objectContaining({
          tool: 'read_file',
          ok: false,
          error: expect.stringContaining('outside the workspace'),
        }),
      ]);
    } finally {
      await llm.close();
    }
  }, 30_000);

  it('turns an exhausted turn budget into an error verdict naming the cause, never a pass', async () => {
    const llm = await startFakeLlm({
      script: [
        { toolCall: { name: 'list_files', input: {} } },
        { toolCall: { name: 'read_file', input: { path: 'src/login.ts' } } },
        { verdict: { severity: 'pass', justification: 'too late', findings: [] } },
      ],
    });
    try {
      const verdict = await evaluateJudgeGate(
        { ...security, max_turns: 2 },
        {
          phase: 'post_execute',
          task: 'add rate limiting',
          diff,
          judge: judgeWith(settings(llm.url)),
          judgeModel: model,
          toolSource: {
            directory: repository.root,
            headCommit: diff.headCommit,
            baseCommit: diff.baseCommit,
          },
        },
      );
      expect(verdict).toMatchObject({
        severity: 'blocker',
        error: true,
        cause: { kind: 'configuration', code: 'JUDGE_TURNS_EXHAUSTED' },
      });
      expect(verdict.justification).toContain('used all 2 turns');
      expect(verdict.toolCalls?.map((call) => call.tool)).toEqual(['list_files', 'read_file']);
      expect(verdict.usage).toMatchObject({ inputTokens: 200, outputTokens: 40 });
      expect(llm.mainRequests()).toHaveLength(2);
      expect(llm.script.remaining).toBe(1);
    } finally {
      await llm.close();
    }
  }, 30_000);

  it('repairs an invalid final answer once, showing the model the whole loop, and counts all three calls', async () => {
    const llm = await startFakeLlm({
      script: [
        { toolCall: { name: 'read_file', input: { path: 'src/limit.ts' } } },
        'I think it is fine.',
        { verdict: { severity: 'pass', justification: 'fine after all', findings: [] } },
      ],
    });
    try {
      const verdict = await evaluateJudgeGate(security, {
        phase: 'post_execute',
        task: 'add rate limiting',
        diff,
        judge: judgeWith(settings(llm.url)),
        judgeModel: model,
        toolSource: { directory: repository.root, headCommit: diff.headCommit, baseCommit: diff.baseCommit },
      });
      expect(llm.problems).toEqual([]);
      expect(verdict).toMatchObject({ severity: 'pass', error: false, justification: 'fine after all' });
      const requests = llm.mainRequests();
      expect(requests).toHaveLength(3);
      // The repair request still holds the tool result and the answer it corrects.
      expect(JSON.stringify(requests[2]?.body)).toContain('requests per minute');
      expect(JSON.stringify(requests[2]?.body)).toContain('could not be used');
      expect(verdict.usage).toMatchObject({ inputTokens: 300, outputTokens: 60 });
    } finally {
      await llm.close();
    }
  }, 30_000);

  it('a validator without tools still answers in one completion, with no tools on the wire', async () => {
    const llm = await startFakeLlm({
      script: [{ verdict: { severity: 'pass', justification: 'looks fine', findings: [] } }],
    });
    try {
      const verdict = await evaluateJudgeGate(
        { ...security, tools: [] },
        {
          phase: 'post_execute',
          task: 'add rate limiting',
          diff,
          judge: judgeWith(settings(llm.url)),
          judgeModel: model,
          toolSource: {
            directory: repository.root,
            headCommit: diff.headCommit,
            baseCommit: diff.baseCommit,
          },
        },
      );
      expect(verdict).toMatchObject({ severity: 'pass', error: false, justification: 'looks fine' });
      expect(verdict.toolCalls).toBeUndefined();
      const requests = llm.mainRequests();
      expect(requests).toHaveLength(1);
      expect(JSON.stringify(requests[0]?.body)).not.toContain('read_file');
    } finally {
      await llm.close();
    }
  }, 30_000);
});

describe('a judge whose tools cannot be given', () => {
  it('is an error verdict when the grant names a tool that is not read-only', async () => {
    const verdict = await evaluateJudgeGate(
      { ...security, tools: ['read_file', 'write_file'] },
      {
        phase: 'post_execute',
        task: 'x',
        diff,
        judge: async () => {
          throw new Error('never asked');
        },
        judgeModel: 'mock/pass',
        toolSource: { directory: repository.root, headCommit: diff.headCommit, baseCommit: diff.baseCommit },
      },
    );
    expect(verdict).toMatchObject({ error: true, severity: 'blocker', cause: { code: 'PROTOCOL_INVALID' } });
    expect(verdict.justification).toContain('`write_file`');
  });
});
