import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { noProcessMatches, sandboxMissing } from '../testing/hostile-coder.js';
import { createPipelineFixture, type PipelineFixture, testProtocol } from '../testing/pipeline-fixture.js';
import { startSetupJob } from '../workspace-setup/testing/setup-job.js';
import { runWorkspaceSetup } from './stage-setup.js';

let fixture: PipelineFixture | undefined;
afterEach(() => fixture?.cleanup());

/** A repository whose protocol sets `execution` lines after the test protocol's own. */
function repositoryWith(execution: string): PipelineFixture {
  fixture = createPipelineFixture({ protocol: `${testProtocol}${execution}` });
  return fixture;
}

/**
 * A real npm package whose `test` script needs an installed dependency: `fake-mocha`, packed into a local
 * tarball and pinned in package-lock.json, so `npm ci --prefer-offline` installs it without a network.
 * No .gitignore: node_modules is exactly what must stay out of the coder's change.
 */
function npmPackage(target: PipelineFixture): void {
  const scratch = mkdtempSync(join(tmpdir(), 'snodo-fake-mocha-'));
  try {
    mkdirSync(join(scratch, 'bin'));
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'fake-mocha', version: '1.0.0', bin: { 'fake-mocha': 'bin/fake-mocha.js' } }),
    );
    writeFileSync(join(scratch, 'bin', 'fake-mocha.js'), '#!/usr/bin/env node\nconsole.log("1 passing");\n', {
      mode: 0o755,
    });
    mkdirSync(join(target.root, 'vendor'));
    execFileSync('npm', ['pack', '--silent', '--pack-destination', join(target.root, 'vendor')], {
      cwd: scratch,
      env: { ...process.env, npm_config_cache: join(scratch, 'cache') },
      stdio: 'ignore',
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  target.write(
    'package.json',
    JSON.stringify({
      name: 'sample',
      version: '1.0.0',
      scripts: { test: 'fake-mocha' },
      devDependencies: { 'fake-mocha': 'file:vendor/fake-mocha-1.0.0.tgz' },
    }),
  );
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--package-lock-only'], {
    cwd: target.root,
    env: { ...process.env, npm_config_cache: join(target.root, '..', 'npm-cache') },
    stdio: 'ignore',
  });
  target.commitAll('an npm package with a locked dependency');
}

/** What the task commit would hold: `git add --all` in the workspace, then the staged names. */
function wouldBeCommitted(workspacePath: string): string {
  execFileSync('git', ['add', '--all'], { cwd: workspacePath });
  return execFileSync('git', ['diff', '--cached', '--name-only'], {
    cwd: workspacePath,
    encoding: 'utf8',
  }).trim();
}

describe('runWorkspaceSetup', { timeout: 60_000 }, () => {
  it('installs an npm package from its lockfile in the workspace, and none of it is in the change', async () => {
    const repository = repositoryWith('');
    npmPackage(repository);
    const job = await startSetupJob(repository);
    const ending = await runWorkspaceSetup(job.run, job);

    expect(ending).toBeUndefined();
    expect(existsSync(join(job.workspace.worktreePath, 'node_modules', '.bin', 'fake-mocha'))).toBe(true);
    expect(existsSync(join(repository.root, 'node_modules'))).toBe(false);
    expect(wouldBeCommitted(job.workspace.worktreePath)).toBe('');
    const [setup] = job.auditEvents().filter((event) => event.type === 'workspace-setup');
    expect(setup?.data).toMatchObject({
      command: 'npm ci --prefer-offline --no-audit --no-fund',
      source: 'lockfile package-lock.json',
      outcome: 'passed',
      exit_code: 0,
      excluded: ['node_modules/'],
    });
    expect(job.events()).toContainEqual(
      expect.objectContaining({
        type: 'stage-start',
        stage: 'setup',
        detail: expect.stringContaining('npm ci'),
      }),
    );
    expect(job.events()).toContainEqual(expect.objectContaining({ type: 'stage-end', stage: 'setup' }));
  });

  it('fails as an environment problem naming the command, its exit code, its output and the fix', async () => {
    const repository = repositoryWith(
      `  setup: [node, -e, "console.log('cannot reach the registry'); process.exit(7)"]\n`,
    );
    const job = await startSetupJob(repository);
    const ending = await runWorkspaceSetup(job.run, job);

    expect(ending).toMatchObject({ status: 'failed', error: { code: 'WORKSPACE_SETUP_FAILED' } });
    expect(ending?.summary).toContain('exited with code 7');
    expect(ending?.summary).toContain('cannot reach the registry');
    expect(ending?.summary).toContain('(from execution.setup)');
    expect(ending?.summary).toContain('Set `execution.setup` in .snodo/protocol.yml');
    const [setup] = job.auditEvents().filter((event) => event.type === 'workspace-setup');
    expect(setup?.data).toMatchObject({ outcome: 'failed', exit_code: 7 });
    expect(String(setup?.data.output_tail)).toContain('cannot reach the registry');
  });

  it('names a detected tool that is not on PATH, and the fix, before running anything', async () => {
    const repository = repositoryWith('');
    repository.write('go.mod', 'module example.com/sample\n\ngo 1.22\n');
    repository.commitAll('a go module');
    const job = await startSetupJob(repository);
    // The machine has no `go` where snodo looks (the workspace's PATH is snodo's own).
    (job.run.context.env as Record<string, string>).PATH = '/nonexistent';
    const ending = await runWorkspaceSetup(job.run, job);

    expect(ending).toMatchObject({ status: 'failed', error: { code: 'WORKSPACE_SETUP_TOOL_MISSING' } });
    expect(ending?.summary).toContain('needs `go` to run `go mod download` (detected from manifest go.mod)');
    expect(ending?.summary).toContain('Install it, or set `execution.setup`');
  });

  it('stops a setup that runs past its limit, killing its process group', async () => {
    const marker = `snodo-setup-${process.pid}-sleeper`;
    const repository = repositoryWith(
      `  setup:\n    command: [sh, -c, "node -e 'setInterval(() => {}, 1000)' ${marker} & touch started; wait"]\n    timeout_seconds: 1\n`,
    );
    const job = await startSetupJob(repository);
    const ending = await runWorkspaceSetup(job.run, job);

    expect(existsSync(join(job.workspace.worktreePath, 'started'))).toBe(true);
    expect(ending).toMatchObject({ status: 'failed', error: { code: 'WORKSPACE_SETUP_FAILED' } });
    expect(ending?.summary).toContain('ran longer than 1s and was stopped');
    expect(ending?.summary).toContain('timeout_seconds: 2');
    expect(await noProcessMatches(marker)).toBe(true);
  });

  it('refuses a setup that rewrites a tracked file, which would pass it off as the coder’s change', async () => {
    const repository = repositoryWith('  setup: "echo rewritten >> README.md"\n');
    const job = await startSetupJob(repository);
    const ending = await runWorkspaceSetup(job.run, job);

    expect(ending).toMatchObject({ status: 'failed', error: { code: 'WORKSPACE_SETUP_FAILED' } });
    expect(ending?.summary).toContain('changed tracked files (README.md)');
  });

  it('does nothing, and reports no stage, in a repository with nothing to install', async () => {
    const repository = repositoryWith('');
    const job = await startSetupJob(repository);
    const ending = await runWorkspaceSetup(job.run, job);

    expect(ending).toBeUndefined();
    expect(job.events().some((event) => event.type === 'stage-start')).toBe(false);
    expect(job.auditEvents().some((event) => event.type === 'workspace-setup')).toBe(false);
  });

  it('copies untracked files the project needs before setup, and keeps them out of the change', async () => {
    const repository = repositoryWith(
      '  setup: "test -f .env && cat .env"\n  copy_into_workspace: [.env, "config/*.json"]\n',
    );
    repository.write('.env', 'API_URL=http://127.0.0.1:9\n');
    repository.write('config/local.json', '{}\n');
    const job = await startSetupJob(repository);
    const ending = await runWorkspaceSetup(job.run, job);

    expect(ending).toBeUndefined();
    expect(readFileSync(join(job.workspace.worktreePath, '.env'), 'utf8')).toBe(
      'API_URL=http://127.0.0.1:9\n',
    );
    expect(wouldBeCommitted(job.workspace.worktreePath)).toBe('');
    const [setup] = job.auditEvents().filter((event) => event.type === 'workspace-setup');
    expect(setup?.data).toMatchObject({ copied: ['.env', 'config/local.json'], outcome: 'passed' });
    expect(String(setup?.data.output_tail)).toContain('API_URL=http://127.0.0.1:9');
  });
});

const title = sandboxMissing ? `setup in the sandbox (skipped: ${sandboxMissing})` : 'setup in the sandbox';

describe.skipIf(sandboxMissing !== undefined)(title, { timeout: 60_000 }, () => {
  it('a hostile setup command cannot write outside the workspace, nor read the user’s home', async () => {
    const repository = repositoryWith(
      '  setup: "echo pwned > ../../escaped.txt; echo pwned > $REPO/pwned.txt; cat $HOST_HOME/.gitconfig"\n',
    );
    const protocolPath = join(repository.root, '.snodo', 'protocol.yml');
    writeFileSync(
      protocolPath,
      readFileSync(protocolPath, 'utf8')
        .replace('$REPO', repository.root)
        .replace('$HOST_HOME', String(repository.env.HOME)),
    );
    repository.commitAll('hostile setup');
    const job = await startSetupJob(repository);
    expect(job.containment.gateSandbox).toBeDefined();
    const ending = await runWorkspaceSetup(job.run, job);

    expect(ending).toMatchObject({ status: 'failed', error: { code: 'WORKSPACE_SETUP_FAILED' } });
    expect(existsSync(join(repository.root, 'pwned.txt'))).toBe(false);
    expect(existsSync(join(job.workspace.worktreePath, '..', '..', 'escaped.txt'))).toBe(false);
    expect(ending?.summary).toContain('pwned.txt: Read-only file system');
    expect(ending?.summary).toContain('.gitconfig: No such file or directory');
    expect(ending?.summary).not.toContain('Test User');
  });
});
