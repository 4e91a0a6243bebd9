import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useIsolatedGitConfiguration } from '../git/test-repository.js';
import { verifyRepositoryAudit } from '../tasks/audit-tasks.js';
import { createPipelineFixture, type PipelineFixture, testProtocol } from '../testing/pipeline-fixture.js';
import { landOnRemote } from './land-on-remote.js';
import { registerWorkerKey } from './register-worker-key.js';
import { verifyRemoteAudit } from './verify-remote-audit.js';

let fixture: PipelineFixture | undefined;
let restoreGit: (() => void) | undefined;
afterEach(() => {
  fixture?.cleanup();
  restoreGit?.();
});

/** The test protocol, keeping the task branch instead of landing it locally (as a worker does). */
const keepBranchProtocol = testProtocol.replace('execution:\n', 'execution:\n  merge_strategy: none\n');

describe('a worker clone: pipeline runs, then remote landings', () => {
  it('the runs and the landings share one chain: local and remote verification both pass, and runs go on', {
    timeout: 240_000,
  }, async () => {
    restoreGit = useIsolatedGitConfiguration().restore;
    const worker = createPipelineFixture({ protocol: keepBranchProtocol });
    fixture = worker;
    const bare = join(worker.root, '..', 'shared.git');
    execFileSync('git', ['clone', '--quiet', '--bare', worker.root, bare]);
    worker.git(['remote', 'add', 'origin', bare]);
    await registerWorkerKey({
      clone: worker.root,
      remote: 'origin',
      workerId: 'w1',
      snodoHome: worker.snodoHome,
    });
    const verifyLocally = () =>
      verifyRepositoryAudit({
        cwd: worker.root,
        env: worker.env,
        homeDirectory: join(worker.root, '..', 'home'),
      });

    const landings: string[] = [];
    for (const task of ['Add a first file', 'Add a second file']) {
      const { result } = await worker.run({ task, mock: true });
      expect(result.status, result.summary).toBe('done');
      expect(result.branch).toBeDefined();
      const taskCommit = worker.git(['rev-parse', `refs/heads/${result.branch}`]);
      worker.git(['push', '--quiet', 'origin', `${taskCommit}:refs/snodo/jobs/${result.jobId}`]);
      const landed = await landOnRemote({
        clone: worker.root,
        remote: 'origin',
        base: 'trunk',
        jobId: result.jobId,
        workerId: 'w1',
        snodoHome: worker.snodoHome,
        taskCommit,
        // The second task started from the local trunk, which the first landing (on the remote) did not move.
        taskBase: result.baseCommit as string,
      });
      expect(landed.status, landed.status === 'kept' ? landed.reason : '').toBe('landed');
      if (landed.status === 'landed') landings.push(landed.commit);
      const local = await verifyLocally();
      expect(local.result.ok, JSON.stringify(local.result.failure)).toBe(true);
    }

    const remote = await verifyRemoteAudit({ repositoryRoot: worker.root, remote: 'origin', base: 'trunk' });
    expect(remote.failures).toEqual([]);
    expect(remote.landings).toEqual({ checked: 2, anchored: 2 });
    // The chain on the remote carries the runs' own events, not only the landings.
    const log = execFileSync('git', ['--git-dir', bare, 'show', 'refs/snodo/audit/w1:audit.log'], {
      encoding: 'utf8',
    });
    expect(log).toContain('"type":"job-start"');
    expect(log).toContain('"type":"remote-landing-start"');
  });
});
