import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createFakeCli } from '@snodo/conformance/fake-cli';
import { isProcessAlive } from '@snodo/foundation';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliFixture, createCliFixture } from '../../testing/cli-fixture.js';
import { oneJudgeProtocol } from '../../testing/direct-llm-scenario.js';
import { snodoInProcess } from '../../testing/in-process-cli.js';

/**
 * A budget stop of an in-place CLI coder through the binary (issue 15): a stand-in `claude` writes half a
 * change, prints one model response (stream-json, 401 tokens) and keeps running. At `--max-tokens 300` the
 * usage of that response stops it: its process is killed, what it wrote is committed on the task branch,
 * and the job escalates. Approved with a higher cap, the next attempt finishes and the job lands.
 */
let fixture: CliFixture | undefined;
afterEach(() => fixture?.cleanup());

const protocol = oneJudgeProtocol('budget-in-place', ['sandbox: off']);

const usage = { input_tokens: 100, cache_creation_input_tokens: 300, cache_read_input_tokens: 800 };
const init = JSON.stringify({
  type: 'system',
  subtype: 'init',
  session_id: 's-1',
  model: 'claude-sonnet-4-5',
});
const response = (id: string) =>
  JSON.stringify({
    type: 'assistant',
    message: { id, model: 'claude-sonnet-4-5', content: [], usage: { ...usage, output_tokens: 1 } },
  });
const result = JSON.stringify({
  type: 'result',
  subtype: 'success',
  is_error: false,
  session_id: 's-2',
  result: 'Finished the notes.',
  usage: { ...usage, output_tokens: 40 },
  total_cost_usd: 0.002,
});

describe('a budget stop of an in-place coder', () => {
  it('kills the coder at the cap, commits what it wrote on the task branch, and lands after approve --max-tokens', async () => {
    fixture = createCliFixture({ protocol });
    const bin = join(fixture.directory, 'bin');
    mkdirSync(bin);
    const env = { PATH: `${bin}:${fixture.env.PATH}`, ANTHROPIC_API_KEY: 'sk-ant-test-0123456789abcdef' };
    const claude = createFakeCli({
      directory: bin,
      name: 'claude',
      version: '2.1.332 (Claude Code)',
      scenario: {
        steps: [
          { writeFile: { path: 'NOTES.md', content: 'first half\n' } },
          { stdout: `${init}\n${response('msg_1')}\n` },
        ],
        hang: true,
      },
    });
    const run = await fixture.snodo(
      [
        'run',
        'Write the notes',
        '--coder',
        'claude-code',
        '-m',
        'mock/pass',
        '--max-tokens',
        '300',
        '--json',
      ],
      { env },
    );
    expect(run.exitCode, run.all).toBe(1);
    const stopped = JSON.parse(run.stdout) as {
      jobId: string;
      outcome: string;
      branch: string;
      budget: { exceeded: unknown };
    };
    expect(stopped.outcome).toBe('escalated');
    expect(stopped.budget.exceeded).toMatchObject({ cap: 'tokens', tokens: 401, phase: 'execute' });
    // The coder would have run on (it hangs after its steps): it was stopped, and no process of it is left.
    // (The stop may come before it notes that its steps are done: the usage line it printed is the last step.)
    const record = claude.readRecord();
    expect(record?.pid).toBeGreaterThan(0);
    expect(isProcessAlive(record?.pid as number)).toBe(false);
    // Its work so far is on the task branch, not on main.
    expect(fixture.git(['show', `${stopped.branch}:NOTES.md`])).toBe('first half');
    expect(fixture.git(['ls-tree', '--name-only', 'main'])).not.toContain('NOTES.md');
    const shown = (await snodoInProcess(fixture, ['task', 'show', stopped.jobId])).stdout;
    expect(shown).toContain(`snodo task approve ${stopped.jobId} --max-tokens <n> --reason "…"`);

    createFakeCli({
      directory: bin,
      name: 'claude',
      version: '2.1.332 (Claude Code)',
      scenario: {
        steps: [
          { writeFile: { path: 'NOTES.md', content: 'first half\nsecond half\n' } },
          { stdout: `${init}\n${response('msg_2')}\n${result}\n` },
        ],
      },
    });
    const approved = await fixture.snodo(
      ['task', 'approve', stopped.jobId, '--reason', 'finish it', '--max-tokens', '100000', '--json'],
      { env },
    );
    expect(approved.exitCode, approved.all).toBe(0);
    expect((JSON.parse(approved.stdout) as { outcome: string }).outcome).toBe('merged');
    expect(fixture.git(['show', 'main:NOTES.md'])).toBe('first half\nsecond half');
  }, 120_000);
});
