import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive } from '@snodo/foundation';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJobState } from '../jobs/index.js';
import { sandboxMissing } from '../testing/hostile-coder.js';
import { createPipelineFixture, type PipelineFixture, testProtocol } from '../testing/pipeline-fixture.js';

// A separate OS process runs the pipeline from the built package, as the CLI does; the test kills it with
// SIGKILL while its coder (a config-declared command coder) is running.
const coreEntry = join(import.meta.dirname, '..', '..', 'dist', 'index.js');
const mockEntry = join(import.meta.dirname, '..', '..', '..', 'coder-mock', 'dist', 'index.js');

async function gone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 3_000; waited += 50) {
    if (!isProcessAlive(pid)) return true;
    await sleep(50);
  }
  return false;
}

let fixture: PipelineFixture;
afterEach(() => fixture.cleanup());

// Unsandboxed, the coder's own process group outlives snodo until the next start stops it; in the sandbox
// (bubblewrap dies with its parent) nothing of the coder outlives snodo at all.
describe.each([
  ['without a sandbox', 'off'],
  ...(sandboxMissing === undefined ? [['in the sandbox', 'auto'] as const] : []),
] as const)('a run killed mid-flight %s', (_, sandbox) => {
  beforeEach(() => {
    fixture = createPipelineFixture({
      protocol: testProtocol.replace('execution:\n', `execution:\n  sandbox: ${sandbox}\n`),
      config: 'coders:\n  sleeper:\n    command: [sh, -c, "sleep 30", "{prompt}"]\n',
    });
  });

  it('leaves the base untouched and is reconciled as interrupted by the next start', async () => {
    expect(existsSync(coreEntry)).toBe(true);
    const script = join(fixture.root, '..', 'run.mjs');
    writeFileSync(
      script,
      `import { runTask } from ${JSON.stringify(coreEntry)};
import { createMockCoder } from ${JSON.stringify(mockEntry)};
const handle = runTask({
  task: 'a task that will be interrupted',
  cwd: process.argv[2],
  coder: 'sleeper',
  model: 'mock/pass',
  coders: {
    registrations: [{ id: 'mock', displayName: 'Mock', kind: 'engine-managed', load: () => createMockCoder() }],
    defaultCoderId: 'mock',
    mockCoderId: 'mock',
  },
});
await handle.result;
`,
    );
    const before = fixture.git(['rev-parse', 'trunk']);
    const child = spawn(process.execPath, [script, fixture.root], { env: fixture.env, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let jobId: string | undefined;
    let coderPid: number | undefined;
    for (let waited = 0; waited < 15_000 && coderPid === undefined; waited += 50) {
      await sleep(50);
      const jobsDirectory = join(fixture.root, '.snodo/jobs');
      if (!existsSync(jobsDirectory)) continue;
      for (const id of execFileSync('ls', [jobsDirectory], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)) {
        try {
          const state = readJobState(fixture.root, id);
          if (state.coderProcess) {
            jobId = id;
            coderPid = state.coderProcess.pid;
          }
        } catch {
          // state.json is being written
        }
      }
    }
    expect(coderPid).toBeDefined();
    child.kill('SIGKILL');
    await exited;
    if (sandbox === 'off') {
      // The coder runs in its own process group: snodo's death does not stop it.
      expect(isProcessAlive(coderPid as number)).toBe(true);
    } else {
      expect(await gone(coderPid as number)).toBe(true);
    }

    expect(fixture.git(['rev-parse', 'trunk'])).toBe(before);
    expect(readJobState(fixture.root, jobId as string).status).toBe('running');

    // The next start finds the dead job, marks it interrupted, audits it, and carries on.
    const { result } = await fixture.run({ task: 'next task', mock: true });
    expect(result.outcome).toBe('merged');
    expect(readJobState(fixture.root, jobId as string)).toMatchObject({
      status: 'interrupted',
      outcome: 'interrupted',
    });
    // ...and stops the coder it left behind.
    if (sandbox === 'off') {
      expect(readJobState(fixture.root, jobId as string).summary).toContain(
        'was still running and was stopped',
      );
    }
    expect(await gone(coderPid as number)).toBe(true);
    const log = readFileSync(join(fixture.root, '.snodo/audit.log'), 'utf8');
    expect(log).toContain(`"job":"${jobId}"`);
    expect(log).toContain('"type":"job-interrupt"');
    expect((await fixture.verifyAudit()).ok).toBe(true);
    // Its branch is kept for inspection.
    expect(fixture.git(['branch', '--list', 'snodo/*'])).toContain(jobId);
  }, 40_000);
});
