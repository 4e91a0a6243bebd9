import { describe, expect, it } from 'vitest';
import { CoderFailedError } from '../errors/coder-failed-error.js';
import type { CoderV1Request } from '../v1/coder-v1-request.js';
import type { CoderV1Result } from '../v1/coder-v1-result.js';
import { isCoderAdapterV1 } from '../v1/is-coder-adapter-v1.js';
import { MockCoderAdapterV1 } from './mock-coder-adapter-v1.js';

function request(attempt: number): CoderV1Request {
  return {
    jobId: 'j_mock',
    attempt,
    task: 'task',
    prompt: 'prompt',
    workspace: '/tmp/none',
    model: undefined,
    env: {},
    timeoutMs: 1000,
    abortSignal: new AbortController().signal,
    instructions: '',
    instructionsPath: '/tmp/none/instructions.md',
    transcriptPath: '/tmp/none/transcript.log',
    coderConfig: {},
    emit: () => {},
  };
}

const changed = (commit: string): CoderV1Result => ({
  status: 'changed',
  commit,
  changedFiles: ['a.txt'],
  usage: null,
  durationMs: 1,
});

describe('MockCoderAdapterV1', () => {
  it('is a coder-v1 adapter with defaults, answering no-changes and ready', async () => {
    const mock = new MockCoderAdapterV1();
    expect(isCoderAdapterV1(mock)).toBe(true);
    expect(mock).toMatchObject({ id: 'mock-coder', kind: 'engine-managed', modelPrefix: undefined });
    expect(await mock.doRun(request(1))).toEqual({
      status: 'no-changes',
      changedFiles: [],
      usage: null,
      durationMs: 0,
    });
    expect(await mock.checkAvailability({ env: {} })).toEqual({
      ready: true,
      installed: true,
      credentials: 'not-needed',
    });
  });

  it('records every call in order', async () => {
    const mock = new MockCoderAdapterV1();
    const first = request(1);
    const second = request(2);
    await mock.doRun(first);
    await mock.doRun(second);
    await mock.checkAvailability({ env: { PATH: '/bin' }, binaryPath: '/bin/x' });
    expect(mock.doRunCalls).toEqual([first, second]);
    expect(mock.checkAvailabilityCalls).toEqual([{ env: { PATH: '/bin' }, binaryPath: '/bin/x' }]);
  });

  it('returns a list of results in order and fails loudly past the end', async () => {
    const mock = new MockCoderAdapterV1({ doRun: [changed('a'), changed('b')] });
    expect((await mock.doRun(request(1))).commit).toBe('a');
    expect((await mock.doRun(request(2))).commit).toBe('b');
    await expect(mock.doRun(request(3))).rejects.toThrow('called 3 times but only 2 results');
  });

  it('calls a function with the request, which may throw a typed error', async () => {
    const mock = new MockCoderAdapterV1({
      kind: 'in-place',
      availability: (options) => ({
        ready: options.env.KEY !== undefined,
        installed: true,
        credentials: 'missing',
      }),
      doRun: (incoming) => {
        if (incoming.attempt > 1) {
          throw new CoderFailedError({ coderId: 'mock-coder', displayName: 'Mock Coder', exitCode: 1 });
        }
        return changed(`attempt-${incoming.attempt}`);
      },
    });
    expect((await mock.doRun(request(1))).commit).toBe('attempt-1');
    await expect(mock.doRun(request(2))).rejects.toSatisfy(CoderFailedError.isInstance);
    expect((await mock.checkAvailability({ env: {} })).ready).toBe(false);
  });
});
