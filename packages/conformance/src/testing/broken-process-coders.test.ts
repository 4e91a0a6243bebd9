import { describe, it } from 'vitest';
import { IgnoresAbortCoder, IgnoresSandboxCoder } from './broken-result-coders.js';
import { expectConformance } from './expect-conformance.js';
import { NaiveProcessCoder } from './naive-process-coder.js';

describe('adapters that supervise the process wrongly fail the obligation they break', () => {
  it('hang-killed-with-group: only the CLI killed, its grandchild left running', async () => {
    // Timeout and abort share the kill path, so the grandchild outlives an abort as well.
    await expectConformance((options) => new NaiveProcessCoder(options, { killOnlyChild: true }), {
      fails: {
        'hang-killed-with-group': 'still run after the timeout',
        'abort-kills-promptly': 'still run after the abort',
      },
      passes: ['nonzero-exit-coder-failed', 'one-commit-equals-change'],
    });
  }, 60_000);

  it('abort-kills-promptly: the abort signal never reaches the process supervisor', async () => {
    await expectConformance((options) => new IgnoresAbortCoder(options), {
      fails: { 'abort-kills-promptly': 'doRun was still running' },
      passes: ['hang-killed-with-group'],
    });
  }, 60_000);

  it('sandbox-honoured: request.sandbox ignored, the CLI started with the user’s full powers', async () => {
    await expectConformance((options) => new IgnoresSandboxCoder(options), {
      fails: { 'sandbox-honoured': 'did not go through request.sandbox' },
      passes: ['one-commit-equals-change', 'hang-killed-with-group'],
    });
  }, 60_000);

  it('sandbox-honoured: a hand-written spawn that ignores the sandbox fails it too', async () => {
    await expectConformance((options) => new NaiveProcessCoder(options, {}), {
      fails: { 'sandbox-honoured': 'did not go through request.sandbox' },
      passes: [],
    });
  }, 60_000);

  it('stdin-never-blocks: stdin left as an open pipe', async () => {
    await expectConformance((options) => new NaiveProcessCoder(options, { stdinPipe: true }), {
      fails: { 'stdin-never-blocks': 'stdin was left open' },
      passes: ['hang-killed-with-group', 'one-commit-equals-change'],
    });
  }, 60_000);

  it('output-capped: the whole output kept in memory', async () => {
    // The same mistake leaves the transcript uncapped; the memory check comes first and names the cause.
    await expectConformance((options) => new NaiveProcessCoder(options, { bufferOutput: true }), {
      fails: { 'output-capped': 'the output is being buffered, not streamed' },
      passes: ['transcript-exists', 'nonzero-exit-coder-failed'],
    });
  }, 60_000);

  it('a hand-written supervisor without those mistakes passes the process obligations', async () => {
    await expectConformance((options) => new NaiveProcessCoder(options, {}), {
      fails: {},
      passes: ['hang-killed-with-group', 'abort-kills-promptly', 'stdin-never-blocks', 'output-capped'],
    });
  }, 60_000);
});
