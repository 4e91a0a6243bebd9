import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createJob, readJobState, updateJobState } from '../jobs/index.js';
import { landingsDirectory } from '../landing/index.js';
import { createPipelineFixture, type PipelineFixture } from '../testing/pipeline-fixture.js';

let fixture: PipelineFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

/** The pid of a process that has exited, so a journal or a job naming it belongs to a dead snodo. */
function deadPid(): number {
  return Number(spawnSync('sh', ['-c', 'echo $$']).stdout.toString().trim());
}

describe('the next start after a train of landings was killed', { timeout: 60_000 }, () => {
  it('records each job of the train as landed with its own commit, and audits each', async () => {
    const target = createPipelineFixture();
    fixture = target;
    const from = target.git(['rev-parse', 'trunk']);
    target.git(['checkout', '--quiet', '-b', 'train']);
    target.write('one.txt', '1\n');
    const first = target.commitAll('first car');
    target.write('two.txt', '2\n');
    const second = target.commitAll('second car');
    target.git(['checkout', '--quiet', 'trunk']);
    // Two jobs whose process died while their train moved trunk: the journal names both, trunk is at the
    // second car's commit, the checkout still at the old one.
    const jobs = ['first', 'second'].map((task) => {
      const { jobId } = createJob({
        repositoryRoot: target.root,
        task,
        cwd: target.root,
        requestOptions: {},
      });
      return jobId;
    });
    for (const jobId of jobs) {
      await updateJobState(target.root, jobId, (state) => ({
        ...state,
        process: { ...state.process, pid: deadPid() },
      }));
    }
    mkdirSync(landingsDirectory(target.root), { recursive: true });
    writeFileSync(
      join(landingsDirectory(target.root), `journal-${jobs[0]}.json`),
      JSON.stringify({
        version: 1,
        jobId: jobs[0],
        baseRef: 'refs/heads/trunk',
        from,
        to: second,
        checkouts: [target.root],
        cars: [
          { jobId: jobs[0], from, to: first },
          { jobId: jobs[1], from: first, to: second },
        ],
        pid: deadPid(),
        hostname: hostname(),
        startedAt: new Date().toISOString(),
      }),
    );
    target.git(['update-ref', 'refs/heads/trunk', second, from]);

    await target.run({ task: 'the next run', mock: true });

    const parts = [
      { jobId: jobs[0] as string, from, to: first },
      { jobId: jobs[1] as string, from: first, to: second },
    ];
    for (const part of parts) {
      expect(readJobState(target.root, part.jobId)).toMatchObject({
        status: 'done',
        outcome: 'merged',
        landing: { outcome: 'merged', mergeCommit: part.to, previousBaseCommit: part.from },
      });
    }
    const recovered = readFileSync(join(target.root, '.snodo/audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; job?: string; data?: Record<string, unknown> })
      .filter((event) => event.type === 'landing-recover')
      .map((event) => ({
        jobId: event.job,
        from: event.data?.previous_base_commit,
        to: event.data?.merge_commit,
        action: event.data?.action,
      }));
    expect(recovered).toEqual(parts.map((part) => ({ ...part, action: 'finished' })));
    expect(target.git(['status', '--porcelain'])).toBe('');
  });
});
