import { readFileSync } from 'node:fs';
import { type FakeLlm, startFakeLlm } from '@snodo/conformance/fake-llm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLitellmCoder } from './litellm-adapter.js';
import { DIALECT_CASES } from './testing/dialect-cases.js';
import { createTemporaryWorkspace, type TemporaryWorkspace } from './testing/temporary-workspace.js';

// A key planted in the repository: a model that reads the file carries it into a tool result.
const PLANTED = 'sk-planted-0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d';
const ORIGINAL = `export const greeting = "hi"; // ${PLANTED}\n`;
const EDITED = 'export const greeting = "hello, world";\n';

let workspace: TemporaryWorkspace;
let fake: FakeLlm | undefined;
beforeEach(() => {
  workspace = createTemporaryWorkspace({ 'src/greeting.ts': ORIGINAL });
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  workspace.cleanup();
});

const cases = DIALECT_CASES.filter(
  (entry) => entry.dialect === 'openai-chat' || entry.dialect === 'anthropic',
);

describe.each(cases)('the litellm coder’s transcript over $name', (dialect) => {
  it('records every exchange, redacted, and calls the provider’s own token counts reported', async () => {
    fake = await startFakeLlm({
      script: [
        {
          toolCall: { name: 'read_file', input: { path: 'src/greeting.ts' } },
          usage: { input: 300, output: 12 },
        },
        { writeFile: { path: 'src/greeting.ts', content: EDITED }, usage: { input: 420, output: 30 } },
      ],
    });
    const key = Object.values(dialect.env)[0];
    const { request } = workspace.request({
      model: dialect.model,
      env: { ...dialect.env, SNODO_TEST_TOKEN: PLANTED },
    });
    const coder = createLitellmCoder({ providers: dialect.providers(fake), fetch: dialect.fetch?.(fake) });

    const result = await coder.doRun(request);

    expect(result.transcriptPath).toBe(request.transcriptPath);
    expect(result.usage).toMatchObject({ inputTokens: 720, outputTokens: 42, source: 'reported' });
    const transcript = readFileSync(request.transcriptPath, 'utf8');
    expect(transcript).toContain(`=== snodo job j_test0001 attempt 1 · litellm@`);
    expect(transcript).toContain('--- system ---');
    expect(transcript).toContain('Change the greeting in src/greeting.ts');
    expect(transcript).toContain('[tool call] read_file {"path":"src/greeting.ts"}');
    expect(transcript).toMatch(/tool result read_file: .*export const greeting = "hi";/);
    expect(transcript).toContain('[tool call] submit_files');
    expect(transcript).toContain('hello, world');
    expect(transcript).toContain('usage 300 in, 12 out, 0 cached');
    expect(transcript).toContain('(reported)');
    expect(transcript).toMatch(/=== submitted 1 file\(s\) by tool after 2 turn\(s\), \d+ ms ===/);
    expect(transcript).not.toContain(PLANTED);
    expect(transcript).toContain('[redacted SNODO_TEST_TOKEN]');
    if (key !== undefined) expect(transcript).not.toContain(key);
  });
});

describe('a failed litellm attempt', () => {
  it('still leaves the transcript of what happened, ending with the error', async () => {
    fake = await startFakeLlm({ script: [{ error: { status: 400, message: 'scripted refusal' } }] });
    const [dialect] = cases;
    if (dialect === undefined) throw new Error('no Chat Completions dialect case');
    const { request } = workspace.request({ model: dialect.model, env: dialect.env });

    const error = await createLitellmCoder({ providers: dialect.providers(fake) })
      .doRun(request)
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(Error);
    const transcript = readFileSync(request.transcriptPath, 'utf8');
    expect(transcript).toContain('--- turn 1: request');
    expect(transcript).toContain('--- turn 1: failed:');
    expect(transcript).toMatch(/=== failed after \d+ ms: /);
  });
});
