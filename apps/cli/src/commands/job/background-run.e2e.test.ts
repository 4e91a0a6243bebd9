import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive } from '@snodo/foundation';
import { describe, expect, it, type TestContext } from 'vitest';
import { taskListJsonSchema } from '../../json/job-json-schemas.js';
import {
  type CliFixture,
  createCliFixture,
  parseJson,
  SNODO_BIN,
  TEST_PROTOCOL,
} from '../../testing/cli-fixture.js';

// `snodo run --background` and `snodo job …`, with the built CLI spawned as a user runs it, in temporary
// repositories with real git, and coders declared in config as commands that sleep.

/** The test protocol whose pre-execute judge passes on its own model, so `-m mock/warn` escalates later. */
const JUDGED_AFTER_EXECUTION = TEST_PROTOCOL.replace(
  '  - validator_id: task-review\n',
  '  - validator_id: task-review\n    model: mock/pass\n',
);

/** The file that lets a `sleeper` coder finish, in its workspace (the one place its sandbox lets it see). */
const RELEASE_FILE = '.release-sleeper';

/**
 * Declares coders that wait (`sleeper`: until the test drops `RELEASE_FILE` in its workspace, then it
 * removes it and writes a file) or fail (`crasher`). Released by the test, not by a timer, so a test waits
 * exactly as long as it needs the job running; a sleeper never released gives up after two minutes.
 */
function declareCoders(fixture: CliFixture): void {
  const sleeper = [
    "const fs = require('fs');",
    "console.log('sleeper: started');",
    'setTimeout(() => process.exit(9), 120000).unref();',
    'const poll = setInterval(() => {',
    `  if (!fs.existsSync(${JSON.stringify(RELEASE_FILE)})) return;`,
    '  clearInterval(poll);',
    `  fs.rmSync(${JSON.stringify(RELEASE_FILE)});`,
    "  fs.writeFileSync('slept.txt', 'slept\\n');",
    "  console.log('sleeper: wrote slept.txt');",
    '}, 25);',
  ].join(' ');
  const crasher = `console.error('crasher: giving up'); process.exit(7);`;
  fixture.writeConfig(
    [
      'coders:',
      '  sleeper:',
      `    command: [${JSON.stringify(process.execPath)}, "-e", ${JSON.stringify(sleeper)}, "{prompt}"]`,
      '  crasher:',
      `    command: [${JSON.stringify(process.execPath)}, "-e", ${JSON.stringify(crasher)}, "{prompt}"]`,
      '',
    ].join('\n'),
  );
}

interface Started {
  readonly jobId: string;
  readonly pid: number;
  readonly logs: string;
}

/** `snodo run --background --json …`: the started job, after checking the command returned 0. */
async function startInBackground(fixture: CliFixture, args: readonly string[]): Promise<Started> {
  const started = await fixture.snodo(['run', ...args, '--background', '--json']);
  expect(started.exitCode, started.all).toBe(0);
  return parseJson(started) as Started;
}

function readState(fixture: CliFixture, jobId: string): Record<string, unknown> & { status: string } {
  return JSON.parse(readFileSync(join(fixture.root, '.snodo', 'jobs', jobId, 'state.json'), 'utf8'));
}

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Lets the job's `sleeper` finish, once it runs (its workspace is in `state.json`). */
async function release(fixture: CliFixture, jobId: string): Promise<void> {
  await until(() => readState(fixture, jobId).coderProcess !== undefined, 'the coder to start');
  const isolation = readState(fixture, jobId).isolation as { worktreePath: string };
  writeFileSync(join(isolation.worktreePath, RELEASE_FILE), '');
}

/**
 * A fresh repository for one test, removed when that test ends. The tests run at the same time, so the
 * hook comes from the test's own context (the imported `onTestFinished` would pick any running test).
 */
function useFixture(context: TestContext, options?: Parameters<typeof createCliFixture>[0]): CliFixture {
  const fixture = createCliFixture(options);
  context.onTestFinished(() => fixture.cleanup());
  return fixture;
}

// Each test starts several real snodo processes, the run among them: tens of seconds on a loaded machine.
// They run at the same time: each has its own repository, and most of a test is waiting on processes.
describe.concurrent('snodo run --background', { timeout: 150_000 }, () => {
  it('prints the job id and returns while the job goes on; job wait --timeout gives up with exit 3; logs --follow streams it; job wait exits 0 once merged', async (context) => {
    const fixture = useFixture(context);
    declareCoders(fixture);
    const started = await startInBackground(fixture, [
      'Sleep, then write a file',
      '--coder',
      'sleeper',
      '-m',
      'mock/pass',
    ]);
    expect(started.jobId).toMatch(/^j_[0-9a-z]+$/);
    expect(started.logs).toBe(join(fixture.root, '.snodo', 'jobs', started.jobId, 'output.log'));
    // The command returned while the run goes on, in the process it named.
    const state = readState(fixture, started.jobId);
    expect(state.status).toBe('running');
    expect((state.process as { pid: number }).pid).toBe(started.pid);
    const listed = taskListJsonSchema.parse(parseJson(await fixture.snodo(['task', 'list', '--json'])));
    expect(listed.jobs.find((job) => job.jobId === started.jobId)?.status).toBe('running');
    const gaveUp = await fixture.snodo(['job', 'wait', started.jobId, '--timeout', '1']);
    expect(gaveUp.exitCode, gaveUp.all).toBe(3);
    expect(gaveUp.stderr).toContain(`${started.jobId} is still running after 1s`);
    expect(readState(fixture, started.jobId).status).toBe('running');

    await release(fixture, started.jobId);
    const follow = await fixture.snodo(['logs', started.jobId, '--follow']);
    expect(follow.exitCode, follow.all).toBe(0);
    expect(follow.stdout).toContain(`job ${started.jobId}: Sleep, then write a file`);
    expect(follow.stdout).toContain('stage execute');
    expect(follow.stdout).toContain('sleeper: wrote slept.txt');
    expect(follow.stdout).toContain(`job ${started.jobId} ended: merged into main`);

    const wait = await fixture.snodo(['job', 'wait', started.jobId]);
    expect(wait.exitCode, wait.all).toBe(0);
    expect(wait.stdout).toContain(`${started.jobId} done (merged)`);
    expect(fixture.git(['show', 'main:slept.txt'])).toBe('slept');
    expect(isProcessAlive(started.pid)).toBe(false);
  });

  it('job wait exits with the code the foreground run would have had: 1 escalated, 3 coder failed', async (context) => {
    const fixture = useFixture(context, { protocol: JUDGED_AFTER_EXECUTION });
    declareCoders(fixture);
    const escalated = await startInBackground(fixture, ['Add a doubtful file', '--mock', '-m', 'mock/warn']);
    const failed = await startInBackground(fixture, ['Crash', '--coder', 'crasher', '-m', 'mock/pass']);
    const [escalatedWait, failedWait] = await Promise.all([
      fixture.snodo(['job', 'wait', escalated.jobId, '--json']),
      fixture.snodo(['job', 'wait', failed.jobId]),
    ]);
    expect(escalatedWait.exitCode, escalatedWait.all).toBe(1);
    expect(parseJson(escalatedWait)).toMatchObject({ status: 'halted', outcome: 'escalated' });
    expect(failedWait.exitCode, failedWait.all).toBe(3);
    expect(failedWait.stdout).toContain(`${failed.jobId} failed`);
  });

  it('job cancel stops a sleeping coder: its process is gone, the job is cancelled with who, audited', async (context) => {
    const fixture = useFixture(context);
    declareCoders(fixture);
    const started = await startInBackground(fixture, [
      'Sleep for minutes',
      '--coder',
      'sleeper',
      '-m',
      'mock/pass',
    ]);
    await until(() => readState(fixture, started.jobId).coderProcess !== undefined, 'the coder to start');
    const coder = readState(fixture, started.jobId).coderProcess as { pid: number; processGroup: number };
    expect(isProcessAlive(coder.pid)).toBe(true);

    const cancel = await fixture.snodo(['job', 'cancel', started.jobId, '--reason', 'changed my mind']);
    expect(cancel.exitCode, cancel.all).toBe(0);
    expect(cancel.stdout).toContain(`cancelled ${started.jobId}: Cancelled by tester at`);
    const state = readState(fixture, started.jobId);
    expect(state.status).toBe('cancelled');
    expect(state.decisions).toEqual([
      expect.objectContaining({ action: 'cancel', by: 'tester', reason: 'changed my mind' }),
    ]);
    await until(
      () => !isProcessAlive(coder.pid) && !isProcessAlive(started.pid),
      'the coder and the run to exit',
    );
    const audit = readFileSync(join(fixture.root, '.snodo', 'audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; job?: string; data: Record<string, unknown> })
      .filter((event) => event.job === started.jobId);
    const types = audit.map((event) => event.type);
    expect(types).toContain('job-cancel');
    expect(types.indexOf('job-cancel')).toBeLessThan(types.lastIndexOf('job-end'));
    expect(audit.find((event) => event.type === 'job-end')?.data).toMatchObject({ status: 'cancelled' });

    expect((await fixture.snodo(['job', 'wait', started.jobId])).exitCode).toBe(130);
    const again = await fixture.snodo(['job', 'cancel', started.jobId]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain(`Cannot cancel job ${started.jobId}: it is not running (it is cancelled`);
  });

  it('survives SIGHUP to the terminal that started it, and still lands', async (context) => {
    const fixture = useFixture(context);
    declareCoders(fixture);
    // A shell in a process group of its own plays the terminal: it starts the run, then stays until hung up.
    const script = `"$0" "$1" run "Outlive the terminal" --coder sleeper -m mock/pass --background --json; sleep 60`;
    const terminal = spawn('sh', ['-c', script, process.execPath, SNODO_BIN], {
      cwd: fixture.root,
      env: fixture.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    terminal.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    terminal.stderr?.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      terminal.on('exit', (_code, signal) => resolve(signal)),
    );
    await until(() => output.trim().endsWith('}') || errors.includes('error'), 'the job id');
    expect(errors).toBe('');
    const started = JSON.parse(output) as Started;
    expect(readState(fixture, started.jobId).status, 'still running when the terminal hangs up').toBe(
      'running',
    );
    process.kill(-(terminal.pid as number), 'SIGHUP');
    expect(await exited).toBe('SIGHUP');

    await release(fixture, started.jobId);
    const wait = await fixture.snodo(['job', 'wait', started.jobId]);
    expect(wait.exitCode, wait.all).toBe(0);
    expect(readState(fixture, started.jobId)).toMatchObject({ status: 'done', outcome: 'merged' });
  });

  it('refuses in the foreground what the run would refuse, before any job exists', async (context) => {
    const fixture = useFixture(context);
    const unknown = await fixture.snodo(['run', 'Add a file', '--coder', 'nope', '--background']);
    expect(unknown.exitCode, unknown.all).toBe(2);
    expect(unknown.stderr).toContain('nope');
    const dryRun = await fixture.snodo(['run', 'Add a file', '--mock', '--background', '--dry-run']);
    expect(dryRun.exitCode).toBe(2);
    expect(dryRun.stderr).toContain('--background and --dry-run do not go together');
    const jobs = join(fixture.root, '.snodo', 'jobs');
    expect(existsSync(jobs) ? readdirSync(jobs) : []).toEqual([]);
  });
});
