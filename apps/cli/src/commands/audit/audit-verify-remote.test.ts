import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { landOnRemote, registerWorkerKey } from '@snodo/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliFixture, createCliFixture, parseJson } from '../../testing/cli-fixture.js';
import { snodoInProcess } from '../../testing/in-process-cli.js';
import { auditVerifyRemoteJsonSchema } from './audit-verify-remote-json-schema.js';

describe('snodo audit verify --remote', () => {
  let fixture: CliFixture | undefined;
  const saved = { ...process.env };
  afterEach(() => {
    fixture?.cleanup();
    process.env = { ...saved };
  });

  it('passes for an anchored landing by a registered worker, and names a forged landing (exit 1)', {
    timeout: 180_000,
  }, async () => {
    fixture = createCliFixture();
    const shared = fixture;
    // The worker lands from this test's process: its git runs with the fixture's identity.
    process.env.GIT_CONFIG_GLOBAL = shared.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_NOSYSTEM = '1';
    const git = (args: readonly string[], cwd: string) =>
      execFileSync('git', args, {
        cwd,
        env: shared.env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }).trim();
    const bare = join(shared.directory, 'shared.git');
    git(['init', '--quiet', '--bare', '--initial-branch=main', bare], shared.directory);
    git(['remote', 'add', 'origin', bare], shared.root);
    git(['push', '--quiet', 'origin', 'main'], shared.root);
    const worker = join(shared.directory, 'worker');
    const workerHome = join(shared.directory, 'worker-home');
    mkdirSync(workerHome, { mode: 0o700 });
    git(['clone', '--quiet', bare, worker], shared.directory);
    const taskBase = git(['rev-parse', 'HEAD'], worker);
    git(['checkout', '--quiet', '--detach'], worker);
    execFileSync('sh', ['-c', 'echo done > task.txt'], { cwd: worker });
    git(['add', 'task.txt'], worker);
    git(['commit', '--quiet', '-m', 'task'], worker);
    const taskCommit = git(['rev-parse', 'HEAD'], worker);
    await registerWorkerKey({ clone: worker, remote: 'origin', workerId: 'w1', snodoHome: workerHome });
    const landed = await landOnRemote({
      clone: worker,
      remote: 'origin',
      base: 'main',
      jobId: 'j_cli',
      workerId: 'w1',
      snodoHome: workerHome,
      taskCommit,
      taskBase,
    });
    expect(landed.status).toBe('landed');

    const intact = await shared.snodo(['audit', 'verify', '--remote', 'origin']);
    expect(intact.exitCode, intact.all).toBe(0);
    expect(intact.stdout).toContain('one verifiable history');
    expect(intact.stdout).toContain('1 of 1 landing(s) anchored');
    expect(intact.stdout).toContain('refs/snodo/audit/w1');

    // A commit on main that claims to be a landing of w1's chain at an event it never recorded.
    git(['pull', '--quiet', 'origin', 'main'], shared.root);
    shared.write('forged.txt', 'forged\n');
    git(['add', 'forged.txt'], shared.root);
    git(
      [
        'commit',
        '--quiet',
        '-m',
        'forged',
        '-m',
        `Snodo-Job: j_forged\nSnodo-Audit: worker=w1 seq=1 hash=${'0'.repeat(64)}`,
      ],
      shared.root,
    );
    const forged = git(['rev-parse', 'HEAD'], shared.root);
    git(['push', '--quiet', 'origin', 'main'], shared.root);

    const broken = await shared.snodo(['audit', 'verify', '--remote', 'origin']);
    expect(broken.exitCode, broken.all).toBe(1);
    expect(broken.stdout).toContain('E_LANDING_UNANCHORED');
    expect(broken.stdout).toContain(forged.slice(0, 12));
    const json = auditVerifyRemoteJsonSchema.parse(
      parseJson(await shared.snodo(['audit', 'verify', '--remote', 'origin', '--json'])),
    );
    expect(json.ok).toBe(false);
    expect(json.failures).toEqual([
      expect.objectContaining({ code: 'E_LANDING_UNANCHORED', commit: forged }),
    ]);
  });

  it('refuses --base without --remote, and a remote that is not configured (exit 2)', async () => {
    fixture = createCliFixture();
    const usage = await snodoInProcess(fixture, ['audit', 'verify', '--base', 'main']);
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).toContain('--remote');
    const unknown = await snodoInProcess(fixture, ['audit', 'verify', '--remote', 'nowhere']);
    expect(unknown.exitCode, unknown.all).toBe(2);
    expect(unknown.stderr).toContain('git remote add nowhere');
  });
});
