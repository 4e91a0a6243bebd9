import { MockCoderAdapterV1 } from '@snodo/coder-sdk/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPipelineFixture, type PipelineFixture, registrationFor } from '../testing/pipeline-fixture.js';

let fixture: PipelineFixture;
beforeEach(() => {
  fixture = createPipelineFixture();
});
afterEach(() => fixture.cleanup());

function proposing(proposals: { path: string; action: 'write' | 'delete'; content?: string }[]) {
  return new MockCoderAdapterV1({
    id: 'proposer',
    doRun: {
      status: 'changed',
      changedFiles: proposals.map((proposal) => proposal.path),
      proposals,
      usage: null,
      durationMs: 1,
    },
  });
}

// Core commits an engine-managed coder's proposals with `add` + `commit` and no `status` first; a commit
// git refuses for want of changes must still end the job "no change", never as a failure.
describe('runTask, committing proposals without a status first', { timeout: 60_000 }, () => {
  it('ends no_changes, landing nothing, when the proposals rewrite a file with what it holds', async () => {
    const trunk = fixture.git(['rev-parse', 'trunk']);
    const coder = proposing([{ path: 'README.md', action: 'write', content: '# sample\n' }]);
    const { result } = await fixture.run({
      task: 'rewrite the readme as it is',
      coder: 'proposer',
      model: 'mock/pass',
      extraCoders: [registrationFor(coder)],
    });
    expect(result).toMatchObject({ status: 'done', outcome: 'no_changes' });
    expect(fixture.git(['rev-parse', 'trunk'])).toBe(trunk);
  });

  it('commits and lands a real change as one commit on the base', async () => {
    const trunk = fixture.git(['rev-parse', 'trunk']);
    const coder = proposing([
      { path: 'README.md', action: 'write', content: '# sample, changed\n' },
      { path: 'docs/new.md', action: 'write', content: 'new\n' },
    ]);
    const { result } = await fixture.run({
      task: 'change the readme',
      coder: 'proposer',
      model: 'mock/pass',
      extraCoders: [registrationFor(coder)],
    });
    expect(result).toMatchObject({ status: 'done', outcome: 'merged' });
    expect(result.changedFiles).toEqual(['README.md', 'docs/new.md']);
    expect(fixture.git(['rev-list', '--count', `${trunk}..trunk`])).toBe('1');
    expect(fixture.git(['show', 'trunk:README.md'])).toBe('# sample, changed');
  });
});
