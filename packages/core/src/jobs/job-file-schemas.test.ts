import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jobStateSchema, jobTaskSchema } from './job-state.js';
import jobStateJsonSchema from './job-state.schema.gen.json';
import { type JsonSchema, JsonSchemaMismatch, parseWithJsonSchema } from './parse-with-json-schema.js';

// The commands that read jobs check `state.json` and `task.json` against JSON Schemas generated from the
// zod schemas, so they start without zod. These tests keep the two the same: regenerate the files with
// `pnpm exec vitest run src/jobs/job-file-schemas.test.ts -u` after changing a schema.

function rendered(schema: z.ZodType): string {
  return `${JSON.stringify(z.toJSONSchema(schema), null, 2)}\n`;
}

const validState = {
  version: 1,
  jobId: 'j_abcdefghjk',
  status: 'halted',
  outcome: 'blocker',
  task: 'add a README',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:01.000Z',
  process: { pid: 42, hostname: 'box', startedAt: '2026-01-01T00:00:00.000Z', startTimeMs: 1 },
  stages: { classify: { startedAt: '2026-01-01T00:00:00.000Z', durationMs: 3 } },
  usage: {
    judges: {
      inputTokens: 10,
      outputTokens: 2,
      cachedInputTokens: 0,
      costUsd: null,
      source: 'estimated',
      calls: 1,
      models: ['mock/judge'],
    },
  },
  verdicts: [
    {
      gateId: 'security',
      gateType: 'judge',
      phase: 'post_execute',
      attempt: 1,
      severity: 'blocker',
      error: false,
      justification: 'A key in the diff.',
    },
  ],
  attempts: [{ attempt: 1, status: 'changed', commit: 'abc', changedFiles: ['a.txt'], durationMs: 5 }],
  decisions: [{ action: 'reject', by: 'ana', at: '2026-01-01T00:00:02.000Z' }],
};

const REMOVED = Symbol('removed');

/** A copy of the valid state with the value at `path` replaced by `value`, or removed. */
function variant(path: readonly (string | number)[], value: unknown): unknown {
  const state: unknown = structuredClone(validState);
  let parent = state as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (value === REMOVED) delete parent[last];
  else parent[last] = value;
  return state;
}

describe('job file JSON Schemas', () => {
  it('job-state.schema.gen.json is the JSON Schema of jobStateSchema', async () => {
    await expect(rendered(jobStateSchema)).toMatchFileSnapshot('./job-state.schema.gen.json');
  });

  it('job-task.schema.gen.json is the JSON Schema of jobTaskSchema', async () => {
    await expect(rendered(jobTaskSchema)).toMatchFileSnapshot('./job-task.schema.gen.json');
  });

  const schema = jobStateJsonSchema as JsonSchema;
  const accepted: Array<[string, unknown]> = [
    ['a full state', validState],
    ['a state with unknown keys (dropped, as zod drops them)', variant(['process', 'extra'], 'x')],
    ['a state without an optional field', variant(['outcome'], REMOVED)],
    ['a state with no usage yet', variant(['usage'], {})],
  ];
  it.each(accepted)('reads %s exactly as zod parses it', (_name, value) => {
    expect(parseWithJsonSchema(schema, value)).toEqual(jobStateSchema.parse(value));
  });

  const refused: Array<[string, unknown]> = [
    ['a missing field', variant(['createdAt'], REMOVED)],
    ['an unknown status', variant(['status'], 'paused')],
    ['another version', variant(['version'], 2)],
    ['a fractional pid', variant(['process', 'pid'], 1.5)],
    ['a negative token count', variant(['usage', 'judges', 'inputTokens'], -1)],
    ['a cost that is a string', variant(['usage', 'judges', 'costUsd'], '1')],
    ['a verdict without its severity', variant(['verdicts', 0, 'severity'], REMOVED)],
    ['a changed file that is a number', variant(['attempts', 0, 'changedFiles'], [1])],
    ['an attempt numbered 0', variant(['attempts', 0, 'attempt'], 0)],
    ['a stage timing that is null', variant(['stages', 'classify'], null)],
    ['an array where an object belongs', []],
  ];
  it.each(refused)('refuses %s, as zod does', (_name, value) => {
    expect(jobStateSchema.safeParse(value).success).toBe(false);
    expect(() => parseWithJsonSchema(schema, value)).toThrow(JsonSchemaMismatch);
  });

  it('names where the first mismatch is', () => {
    expect(() => parseWithJsonSchema(schema, variant(['verdicts', 0, 'severity'], REMOVED))).toThrow(
      '$.verdicts[0].severity: is missing',
    );
  });

  it('defines a key a polluted Object.prototype has a setter for as data, never calling the setter', () => {
    const calls: unknown[] = [];
    Object.defineProperty(Object.prototype, 'task', {
      set(value) {
        calls.push(value);
      },
      configurable: true,
    });
    try {
      const parsed = parseWithJsonSchema(schema, structuredClone(validState)) as { task: string };
      expect(calls).toEqual([]);
      expect(Object.getOwnPropertyDescriptor(parsed, 'task')?.value).toBe('add a README');
    } finally {
      delete (Object.prototype as { task?: unknown }).task;
    }
  });

  it('names the mismatch inside a nullable field and an array, as zod would refuse them', () => {
    expect(() => parseWithJsonSchema(schema, variant(['usage', 'judges', 'costUsd'], '1'))).toThrow(
      '$.usage.judges.costUsd: matches none of the allowed shapes',
    );
    expect(() => parseWithJsonSchema(schema, variant(['attempts', 0, 'changedFiles'], ['a', 2]))).toThrow(
      '$.attempts[0].changedFiles[1]: expected string, found integer',
    );
  });

  it('keeps a `__proto__` key in a record as data, never as the prototype', () => {
    const value = JSON.parse(JSON.stringify(validState).replace('"classify"', '"__proto__"'));
    const parsed = parseWithJsonSchema(schema, value) as { stages: object };
    expect(Object.getPrototypeOf(parsed.stages)).toBe(Object.prototype);
    expect(Object.keys(parsed.stages)).toEqual(['__proto__']);
  });
});
