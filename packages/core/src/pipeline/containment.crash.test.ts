import { readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJobState } from '../jobs/index.js';
import { readLandingJournals } from '../landing/index.js';
import { leaveAGrandchildAndHang } from '../testing/attacks.js';
import { createHostileFixture, type HostileFixture, noProcessMatches } from '../testing/hostile-coder.js';
import { createPipelineFixture, type PipelineFixture } from '../testing/pipeline-fixture.js';
import { processMatches, startRunnerProcess, waitForCoderProcess } from '../testing/runner-process.js';

// Snodo itself killed with SIGKILL at the worst moments (issue 11, items 1 and 5).

let fixture: PipelineFixture | undefined;
let hostile: HostileFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  hostile?.fixture.cleanup();
  fixture = undefined;
  hostile = undefined;
});

describe('snodo killed mid-run', { timeout: 60_000 }, () => {
  it('SIGKILL the moment the base ref moves: the next start leaves a consistent checkout', async () => {
    fixture = createPipelineFixture();
    const target = fixture;
    const before = target.git(['rev-parse', 'trunk']);
    const runner = startRunnerProcess(target, { task: 'land me', mock: true });
    // A watcher that kills snodo as soon as git renames the new value of the base ref into place.
    const refs = join(target.root, '.git', 'refs', 'heads');
    const watcher = watch(refs, (_, file) => {
      if (file === 'trunk') runner.child.kill('SIGKILL');
    });
    await runner.exited;
    watcher.close();
    const journalsAtKill = readLandingJournals(target.root).journals.length;
    // NOTE: the watcher wins the race every time on these machines (the journal is there and the checkout
    // shows the landed file as a staged deletion, the bug); a slower kill finds the landing complete.
    const statusAtKill = target.git(['status', '--porcelain']);
    const landed = target.git(['rev-parse', 'trunk']);
    expect(landed).not.toBe(before);

    // The next start (another run) finishes the interrupted landing, then does its own job.
    const { result, events } = await target.run({ task: 'the next task', mock: true });
    expect(result.outcome).toBe('merged');
    expect(target.git(['status', '--porcelain'])).toBe('');
    expect(target.git(['diff', 'HEAD', '--stat'])).toBe('');
    expect(readLandingJournals(target.root).journals).toEqual([]);
    if (journalsAtKill > 0) {
      expect(statusAtKill).toMatch(/^D {2}snodo-mock\//m);
      // Killed inside the window: the next start said what it finished, and the job's record says it landed.
      const note = events.find(
        (event) => event.type === 'job-note' && event.message.includes('Finished the landing'),
      );
      expect(note).toBeDefined();
      const log = readFileSync(join(target.root, '.snodo', 'audit.log'), 'utf8');
      expect(log).toContain('"type":"landing-recover"');
    }
    const killed = readJobState(target.root, result.jobId);
    expect(killed.status).toBe('done');
  });

  it('a setsid grandchild left by an unsandboxed coder is stopped by the next start after snodo was killed', async () => {
    hostile = createHostileFixture({ sandbox: 'off' });
    const marker = `snodo-orphan-${process.pid}-${Date.now()}`;
    hostile.arm(leaveAGrandchildAndHang(marker));
    const runner = startRunnerProcess(hostile.fixture, { task: 'hang', coder: 'hostile' });
    const jobId = await waitForCoderProcess(hostile.fixture);
    expect(jobId).toBeDefined();
    for (let waited = 0; waited < 5_000 && !processMatches(marker); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(processMatches(marker)).toBe(true);
    runner.child.kill('SIGKILL');
    await runner.exited;
    // Outside a sandbox nothing stops it yet: it left the coder's process group.
    expect(processMatches(marker)).toBe(true);

    await hostile.honestRun();

    expect(await noProcessMatches(marker)).toBe(true);
    expect(readJobState(hostile.fixture.root, jobId as string).status).toBe('interrupted');
  });
});
