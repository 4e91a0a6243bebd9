import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { taskListJsonSchema } from '../../json/job-json-schemas.js';
import { type CliFixture, createCliFixture, parseJson, TEST_PROTOCOL } from '../../testing/cli-fixture.js';
import { snodoInProcess } from '../../testing/in-process-cli.js';

// Issue 13, "nothing is created until the plan is sound": every input a run refuses leaves no job, no
// workspace, no branch and no audit event behind, and exits 2 (bad input) or 3 (the environment).
// The refused runs go through the built binary; the commands that only read (task list, coders, doctor,
// dry runs) run in process (testing/in-process-cli.ts).

/** What a refused run must not change: branches, workspaces, jobs and the audit log. */
function traces(fixture: CliFixture) {
  const worktrees = join(fixture.snodoHome, 'worktrees');
  const audit = join(fixture.root, '.snodo', 'audit.log');
  return {
    branches: fixture.git(['branch', '--list', '--format=%(refname:short)']),
    gitWorktrees: fixture.git(['worktree', 'list', '--porcelain']),
    workspaces: existsSync(worktrees) ? readdirSync(worktrees, { recursive: true }).length : 0,
    jobs: existsSync(join(fixture.root, '.snodo', 'jobs'))
      ? readdirSync(join(fixture.root, '.snodo', 'jobs'))
      : [],
    auditEvents: existsSync(audit) ? readFileSync(audit, 'utf8').split('\n').filter(Boolean).length : 0,
  };
}

async function expectNothingCreated(fixture: CliFixture, before: ReturnType<typeof traces>) {
  expect(traces(fixture)).toEqual(before);
  const list = taskListJsonSchema.parse(parseJson(await snodoInProcess(fixture, ['task', 'list', '--json'])));
  expect(list.jobs).toEqual([]);
}

describe('snodo run refuses an unsound plan before anything exists', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('with nothing configured: exit 2 and the quick setup; --dry-run, coders and doctor say not ready', async () => {
    fixture = createCliFixture();
    const before = traces(fixture);
    const run = await fixture.snodo(['run', 'Add a file']);
    expect(run.exitCode, run.all).toBe(2);
    const why = 'Not ready: no judging model is configured, and validators task-review, security need one';
    expect(run.stderr).toContain(why);
    for (const way of ['snodo config add <provider>', 'snodo config set model <provider/model>', '--mock']) {
      expect(run.stderr).toContain(way);
    }
    await expectNothingCreated(fixture, before);

    const dry = await snodoInProcess(fixture, ['run', 'Add a file', '--dry-run']);
    expect(dry.exitCode, dry.all).toBe(2);
    expect(dry.stdout).toContain('not ready');
    expect(dry.stdout).toContain(why);
    expect(dry.stdout).toContain('snodo config set model <provider/model>');

    const coders = await snodoInProcess(fixture, ['coders']);
    expect(coders.exitCode, coders.all).toBe(0);
    expect(coders.stdout).toContain(why);
    expect(coders.stdout).toContain('snodo config add <provider>');
    const listed = JSON.parse((await snodoInProcess(fixture, ['coders', '--json'])).stdout) as {
      coders: { id: string; ready: boolean }[];
    };
    expect(listed.coders.find((coder) => coder.id === 'mock')?.ready).toBe(false);

    const doctor = await snodoInProcess(fixture, ['doctor']);
    expect(doctor.exitCode, doctor.all).toBe(1);
    expect(doctor.stdout).toContain(why);
    expect(doctor.stdout).toContain('snodo config set model <provider/model>');
    await expectNothingCreated(fixture, before);
  });

  it('with a judging model configured, the same run is ready (the check is not always "no")', async () => {
    fixture = createCliFixture();
    const dry = await snodoInProcess(fixture, ['run', 'Add a file', '--mock', '--dry-run']);
    expect(dry.exitCode, dry.all).toBe(0);
    expect(dry.stdout).not.toContain('not ready');
  });

  it.each([
    ['an empty task', ['run', '', '--mock'], 'The task is empty'],
    ['a whitespace-only task', ['run', ' \n\t ', '--mock'], 'The task is empty'],
    ['a base branch that does not exist', ['run', 'Add a file', '--mock', '--base', 'nope'], '"nope"'],
  ])('%s: exit 2, nothing created', async (_name, args, message) => {
    fixture = createCliFixture();
    const before = traces(fixture);
    const run = await fixture.snodo(args);
    expect(run.exitCode, run.all).toBe(2);
    expect(run.stderr).toContain(message);
    await expectNothingCreated(fixture, before);
  });

  it('a dirty tree with --no-isolation: exit 2, nothing created, the edit untouched', async () => {
    fixture = createCliFixture();
    fixture.write('notes.txt', 'mine\n');
    const before = traces(fixture);
    const run = await fixture.snodo(['run', 'Add a file', '--mock', '--no-isolation']);
    expect(run.exitCode, run.all).toBe(2);
    expect(run.stderr).toContain('has uncommitted changes: notes.txt');
    await expectNothingCreated(fixture, before);
    expect(readFileSync(join(fixture.root, 'notes.txt'), 'utf8')).toBe('mine\n');
  });

  it.each([
    ['with --no-isolation', ['--no-isolation']],
    ['without --base', []],
  ])('a detached HEAD %s: exit 2, nothing created', async (_name, extra) => {
    fixture = createCliFixture();
    fixture.git(['checkout', '--quiet', '--detach']);
    const before = traces(fixture);
    const run = await fixture.snodo(['run', 'Add a file', '--mock', ...extra]);
    expect(run.exitCode, run.all).toBe(2);
    expect(run.stderr).toContain('is detached');
    await expectNothingCreated(fixture, before);
  });

  it('an empty repository (no first commit): exit 2, nothing created', async () => {
    fixture = createCliFixture({ git: false });
    fixture.git(['init', '--quiet', '--initial-branch', 'main']);
    fixture.write('.snodo/protocol.yml', TEST_PROTOCOL);
    const run = await fixture.snodo(['run', 'Add a file', '--mock']);
    expect(run.exitCode, run.all).toBe(2);
    expect(run.stderr).toContain('"main"');
    expect(fixture.git(['branch', '--list'])).toBe('');
    expect(existsSync(join(fixture.root, '.snodo', 'jobs'))).toBe(false);
    expect(existsSync(join(fixture.root, '.snodo', 'audit.log'))).toBe(false);
  });

  it('a coder that is not installed: exit 3 with its install text, nothing created', async () => {
    fixture = createCliFixture();
    fixture.writeConfig('coders:\n  claude-code:\n    binary: /nonexistent/claude\n');
    const before = traces(fixture);
    const run = await fixture.snodo(['run', 'Add a file', '--coder', 'claude-code', '-m', 'mock/pass']);
    expect(run.exitCode, run.all).toBe(3);
    expect(run.stderr).toContain('Claude Code is not installed');
    await expectNothingCreated(fixture, before);
  });

  it('a judging model whose provider has no key: exit 3 naming the key and `snodo config add`, nothing created', async () => {
    fixture = createCliFixture();
    const before = traces(fixture);
    const run = await fixture.snodo(['run', 'Add a file', '--mock', '-m', 'openai/gpt-4o-mini']);
    expect(run.exitCode, run.all).toBe(3);
    expect(run.stderr).toContain('No API key for provider "openai"');
    expect(run.stderr).toContain('snodo config add openai <key>');
    await expectNothingCreated(fixture, before);
    const dry = await snodoInProcess(fixture, [
      'run',
      'Add a file',
      '--mock',
      '-m',
      'openai/gpt-4o-mini',
      '--dry-run',
    ]);
    expect(dry.stdout, dry.all).toContain('not ready');
    expect(dry.stdout).toContain('No API key for provider "openai"');
  });
});
