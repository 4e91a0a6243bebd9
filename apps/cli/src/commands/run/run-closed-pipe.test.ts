import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { taskListJsonSchema } from '../../json/job-json-schemas.js';
import { type CliFixture, createCliFixture, SNODO_BIN } from '../../testing/cli-fixture.js';

// Issue 13, job lifecycle: a run whose output pipe closes (`snodo run … | head -2`) ends cancelled with its
// audit record and locks released; a run killed outright is shown as interrupted by the next listing.

/** Starts `snodo run` with stdout and stderr on pipes; `onStderr` sees the progress as it comes. */
function startRun(fixture: CliFixture, args: readonly string[]) {
  const child = spawn(process.execPath, [SNODO_BIN, 'run', ...args], {
    cwd: fixture.root,
    env: fixture.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited };
}

function jobIds(fixture: CliFixture): string[] {
  const directory = join(fixture.root, '.snodo', 'jobs');
  return existsSync(directory) ? readdirSync(directory) : [];
}

/** A protocol whose post-execute command gate sleeps, so the run is still going when the pipe closes. */
const SLOW_PROTOCOL = `protocol_id: slow
name: Slow
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit, dispatch]
    validators: [task-review, tests]
validators:
  - validator_id: task-review
    validator_type: planning
    evaluation_phase: pre_execute
    criteria: [The task is clear.]
  - validator_id: tests
    validator_type: quality
    evaluation_phase: post_execute
    tooling:
      test_command: [node, -e, "setTimeout(() => {}, 4000)"]
disagreement_policy: unanimous
execution:
  max_fix_attempts: 0
  sandbox: off
`;

describe('snodo run: the job ends cleanly however the process goes', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('a closed output pipe cancels the run: job cancelled, job-end audited, the next run starts at once', async () => {
    fixture = createCliFixture({ protocol: SLOW_PROTOCOL });
    const { child, exited } = startRun(fixture, ['Add a file', '--mock']);
    let seen = '';
    // Like `| head -2`: the reader goes away after the first lines of progress.
    child.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.split('\n').length > 2) {
        child.stderr.destroy();
        child.stdout.destroy();
      }
    });
    await exited;
    const [jobId] = jobIds(fixture);
    expect(jobId).toBeDefined();
    const state = JSON.parse(
      readFileSync(join(fixture.root, '.snodo', 'jobs', jobId as string, 'state.json'), 'utf8'),
    );
    expect(state.status).toBe('cancelled');
    const log = readFileSync(join(fixture.root, '.snodo', 'audit.log'), 'utf8');
    expect(log).toContain('"type":"job-end"');

    const next = await fixture.snodo(['run', 'Add another file', '--mock']);
    expect(next.exitCode, next.all).toBe(0);
    expect(next.all).not.toMatch(/wait/i);
  });

  it('a run killed outright shows as interrupted in task list, not running', async () => {
    fixture = createCliFixture({ protocol: SLOW_PROTOCOL });
    const { child, exited } = startRun(fixture, ['Add a file', '--mock']);
    for (let waited = 0; waited < 20_000 && jobIds(fixture).length === 0; waited += 50) await sleep(50);
    // Let the job get going (state.json written) before the kill.
    await sleep(500);
    child.kill('SIGKILL');
    await exited;
    const [jobId] = jobIds(fixture);
    expect(jobId).toBeDefined();

    // The first command to read the job reconciles it, whichever it is.
    const meta = await fixture.snodo(['meta', jobId as string]);
    expect(meta.stdout, meta.all).toContain('interrupted');
    const list = taskListJsonSchema.parse(
      JSON.parse((await fixture.snodo(['task', 'list', '--json'])).stdout),
    );
    expect(list.jobs).toEqual([expect.objectContaining({ jobId, status: 'interrupted' })]);
    expect(readFileSync(join(fixture.root, '.snodo', 'audit.log'), 'utf8')).toContain(
      '"type":"job-interrupt"',
    );
    const show = await fixture.snodo(['task', 'show', jobId as string]);
    expect(show.stdout).toContain('interrupted');
  });
});
