import type { CoderV1Request } from '@snodo/coder-sdk';
import { describe, expect, it } from 'vitest';
import { createMockCoder } from './mock-adapter.js';

function request(overrides: Partial<CoderV1Request> = {}): CoderV1Request {
  return {
    jobId: 'j_abc123',
    attempt: 1,
    task: 'add a greeting',
    prompt: 'add a greeting',
    workspace: '/nonexistent',
    model: undefined,
    env: {},
    timeoutMs: 1_000,
    abortSignal: new AbortController().signal,
    instructions: '',
    instructionsPath: '/nonexistent/instructions.md',
    transcriptPath: '/nonexistent/transcript.log',
    coderConfig: {},
    emit: () => {},
    ...overrides,
  };
}

describe('mock coder', () => {
  it('is a coder-v1 engine-managed adapter that is always ready', async () => {
    const coder = createMockCoder();
    expect(coder.specificationVersion).toBe('coder-v1');
    expect(coder.kind).toBe('engine-managed');
    expect(await coder.checkAvailability({ env: {} })).toMatchObject({
      ready: true,
      credentials: 'not-needed',
    });
  });

  it('by default proposes one file named after the job that records the task', async () => {
    const result = await createMockCoder().doRun(request());
    expect(result.status).toBe('changed');
    expect(result.proposals).toEqual([
      expect.objectContaining({ path: 'snodo-mock/j_abc123.md', action: 'write' }),
    ]);
    expect(result.proposals?.[0]?.content).toContain('add a greeting');
    expect(result.usage).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
      costUsd: 0,
      source: 'reported',
    });
  });

  it('changes its file on each fix attempt, so every attempt is one commit', async () => {
    const first = await createMockCoder().doRun(request());
    const second = await createMockCoder().doRun(request({ attempt: 2 }));
    expect(first.proposals?.[0]?.content).not.toBe(second.proposals?.[0]?.content);
  });

  it('proposes the files of coder_config.files, as a map or as a list', async () => {
    const fromMap = await createMockCoder().doRun(
      request({ coderConfig: { files: { 'src/b.ts': 'b', 'src/a.ts': 'a' } } }),
    );
    expect(fromMap.changedFiles).toEqual(['src/a.ts', 'src/b.ts']);
    const fromList = await createMockCoder().doRun(
      request({ coderConfig: { files: [{ path: 'old.txt', action: 'delete' }] } }),
    );
    expect(fromList.proposals).toEqual([{ path: 'old.txt', action: 'delete', content: '' }]);
  });

  it('rejects a malformed coder_config with a message naming the field', async () => {
    await expect(
      createMockCoder().doRun(request({ coderConfig: { files: [{ content: 'x' }] } })),
    ).rejects.toThrow(/files\[0\]\.path/);
  });

  it('stops when the run is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(createMockCoder().doRun(request({ abortSignal: controller.signal }))).rejects.toThrow();
  });
});
