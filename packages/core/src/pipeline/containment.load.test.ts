import { afterEach, describe, expect, it } from 'vitest';
import { readJobState } from '../jobs/index.js';
import {
  createHostileFixture,
  type HostileFixture,
  noProcessMatches,
  sandboxMissing,
} from './testing/hostile-coder.js';

// The sandbox under load and under a coder that misbehaves without attacking (issue 11, tests).

let hostile: HostileFixture;
afterEach(() => hostile?.fixture.cleanup());

const title = sandboxMissing ? `in the sandbox (skipped: ${sandboxMissing})` : 'in the sandbox';

describe.skipIf(sandboxMissing !== undefined)(title, { timeout: 120_000 }, () => {
  it('8 concurrent sandboxed runs of an in-place coder all land, and the audit chain verifies', async () => {
    hostile = createHostileFixture({ sandbox: 'auto' });
    hostile.arm('job=$(basename "$PWD")\necho "$job" > "change-$job.txt"\nexit 0');
    const results = await Promise.all(Array.from({ length: 8 }, (_, index) => hostile.run(`task ${index}`)));
    for (const result of results) expect(result.outcome, result.summary).toBe('merged');
    for (const result of results) {
      expect(readJobState(hostile.fixture.root, result.jobId).sandbox?.kind).toBe('bubblewrap');
    }
    const landed = hostile.fixture.git(['ls-tree', '--name-only', 'trunk']).split('\n');
    expect(landed.filter((name) => name.startsWith('change-'))).toHaveLength(8);
    expect((await hostile.fixture.verifyAudit()).ok).toBe(true);
    expect(hostile.fixture.git(['status', '--porcelain'])).toBe('');
  });

  it('a hung coder is stopped at its time limit with everything it started', async () => {
    hostile = createHostileFixture({ sandbox: 'auto' });
    const marker = `snodo-hung-${process.pid}`;
    hostile.arm(`sh -c 'sleep 300; echo ${marker}' &\nsleep 300`);
    const { result } = await hostile.fixture.run({
      task: 'hang',
      coder: 'hostile',
      model: 'mock/pass',
      timeoutSeconds: 2,
    });
    expect(result).toMatchObject({ status: 'failed', error: { code: 'CODER_TIMEOUT' } });
    expect(await noProcessMatches(marker)).toBe(true);
  });
});
