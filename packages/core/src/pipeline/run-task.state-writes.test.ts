import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MockCoderAdapterV1 } from '@snodo/coder-sdk/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJobState } from '../jobs/index.js';
import { createPipelineFixture, type PipelineFixture, registrationFor } from '../testing/pipeline-fixture.js';

let fixture: PipelineFixture;
beforeEach(() => {
  fixture = createPipelineFixture();
});
afterEach(() => fixture.cleanup());

/** The one job of the fixture's repository. */
function onlyJobId(): string {
  const [jobId] = readdirSync(join(fixture.root, '.snodo/jobs'));
  if (jobId === undefined) throw new Error('no job yet');
  return jobId;
}

// A stage's start and end, usage, verdicts and an attempt's record ride on the run's next write of
// state.json (`JobRun.updateStateSoon`); a long stage must still show to `snodo task show` and the MCP job
// tools, which read state.json, within a moment.
describe('runTask, state.json of a running job', { timeout: 60_000 }, () => {
  it('shows a long execute stage as started and not ended while the coder works', async () => {
    let seen: unknown;
    const coder = new MockCoderAdapterV1({
      id: 'slow',
      doRun: async () => {
        const started = Date.now();
        // What another terminal's `snodo task show` would read, polled as a user would refresh it.
        while (Date.now() - started < 5_000) {
          const state = readJobState(fixture.root, onlyJobId());
          if (state.stages.execute !== undefined) {
            seen = { execute: state.stages.execute, isolate: state.stages.isolate };
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return { status: 'no-changes', changedFiles: [], usage: null, durationMs: 1 };
      },
    });
    const { result } = await fixture.run({
      task: 'take a while',
      coder: 'slow',
      model: 'mock/pass',
      extraCoders: [registrationFor(coder)],
    });
    expect(result).toMatchObject({ status: 'done', outcome: 'no_changes' });
    // The running stage has a start and no end; the stage before it is complete.
    expect(seen).toMatchObject({
      execute: { startedAt: expect.any(String) },
      isolate: { startedAt: expect.any(String), endedAt: expect.any(String) },
    });
    expect((seen as { execute: object }).execute).not.toHaveProperty('endedAt');
  });

  it('keeps every stage and the usage of a quick run, though most rode on a later write', async () => {
    const { result } = await fixture.run({ task: 'add a file', mock: true });
    const state = readJobState(fixture.root, result.jobId);
    for (const stage of ['classify', 'resolve', 'pre-gates', 'isolate', 'execute', 'post-gates', 'land']) {
      expect(state.stages[stage], stage).toMatchObject({ endedAt: expect.any(String) });
    }
    expect(state.usage.coder).toMatchObject({ source: 'reported' });
    // No change waits in memory once the run has ended: the file on disk is the final word.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(readJobState(fixture.root, result.jobId).updatedAt).toBe(state.updatedAt);
  });
});
