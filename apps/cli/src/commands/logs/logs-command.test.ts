import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { taskListJsonSchema } from '../../json/job-json-schemas.js';
import { type CliFixture, createCliFixture, parseJson } from '../../testing/cli-fixture.js';
import { snodoInProcess } from '../../testing/in-process-cli.js';

/** A coder declared in config as a command: a node script that prints lines and writes one file. */
function declareTalkingCoder(fixture: CliFixture, delayMs: number): void {
  fixture.write(
    'tools/talking-coder.mjs',
    `import { writeFileSync } from 'node:fs';
console.log('talking coder: starting');
await new Promise((resolve) => setTimeout(resolve, ${delayMs}));
writeFileSync('talked.txt', 'hello\\n');
console.log('talking coder: wrote talked.txt');
`,
  );
  fixture.commitAll('add the talking coder');
  fixture.writeConfig(
    `coders:\n  talker:\n    command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(join(fixture.root, 'tools/talking-coder.mjs'))}, "{prompt}"]\n`,
  );
}

describe('snodo logs', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it("prints a finished job's transcript", async () => {
    fixture = createCliFixture();
    declareTalkingCoder(fixture, 0);
    const run = await fixture.snodo(['run', 'Say something', '--coder', 'talker', '-m', 'mock/pass']);
    expect(run.exitCode, run.all).toBe(0);
    const logs = await snodoInProcess(fixture, ['logs', 'last']);
    expect(logs.exitCode, logs.all).toBe(0);
    expect(logs.stdout).toContain('talking coder: starting');
    expect(logs.stdout).toContain('talking coder: wrote talked.txt');
  });

  it('--follow keeps printing until the job stops running', async () => {
    fixture = createCliFixture();
    declareTalkingCoder(fixture, 2_500);
    const running = fixture.snodo(['run', 'Say something slowly', '--coder', 'talker', '-m', 'mock/pass']);
    const jobs = join(fixture.root, '.snodo', 'jobs');
    // Wait until the coder has started, so `logs --follow` attaches to a running job.
    for (let tries = 0; tries < 200; tries += 1) {
      const started =
        existsSync(jobs) && (await snodoInProcess(fixture, ['logs', 'last'])).stdout.includes('starting');
      if (started) break;
      await sleep(50);
    }
    const listed = taskListJsonSchema.parse(
      parseJson(await snodoInProcess(fixture, ['task', 'list', '--json'])),
    );
    expect(listed.jobs[0]?.status).toBe('running');
    const follow = await fixture.snodo(['logs', 'last', '--follow']);
    expect(follow.exitCode, follow.all).toBe(0);
    expect(follow.stdout).toContain('talking coder: starting');
    expect(follow.stdout).toContain('talking coder: wrote talked.txt');
    expect((await running).exitCode).toBe(0);
  });

  it('says so when the coder wrote no transcript', async () => {
    fixture = createCliFixture();
    expect((await fixture.snodo(['run', 'Add a file', '--mock'])).exitCode).toBe(0);
    const logs = await snodoInProcess(fixture, ['logs', 'last']);
    expect(logs.exitCode).toBe(0);
    expect(logs.stdout).toBe('');
    expect(logs.stderr).toContain('no transcript: Mock coder wrote no output');
  });
});
