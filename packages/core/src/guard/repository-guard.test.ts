import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestRepository, type TestRepository } from '../git/test-repository.js';
import type { GuardScope } from './guarded-paths.js';
import { RepositoryGuard } from './repository-guard.js';
import { RepositoryTamperedError } from './repository-tampered-error.js';

const repositories: TestRepository[] = [];
afterEach(() => {
  for (const created of repositories.splice(0)) created.cleanup();
});

function setUp(): { target: TestRepository; scope: GuardScope } {
  const target = createTestRepository();
  repositories.push(target);
  const home = path.join(target.temporaryDirectory, 'home');
  const snodoHome = path.join(target.temporaryDirectory, 'snodo-home');
  mkdirSync(path.join(snodoHome, 'keys'), { recursive: true });
  mkdirSync(home);
  writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = Someone\n');
  writeFileSync(path.join(snodoHome, 'config.yml'), 'model: mock/pass\n');
  writeFileSync(path.join(snodoHome, 'keys', 'audit-signing-key.pem'), 'KEY\n');
  target.commit('protocol', { '.snodo/protocol.yml': 'protocol_id: x\n' });
  return {
    target,
    scope: {
      repositoryRoot: target.root,
      gitCommonDirectory: path.join(target.root, '.git'),
      snodoHome,
      homeDirectory: home,
      env: { HOME: home },
    },
  };
}

async function tamperedBy(guard: RepositoryGuard): Promise<RepositoryTamperedError> {
  const error = await guard.verify('coder attempt 1').then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(RepositoryTamperedError.isInstance(error)).toBe(true);
  return error as RepositoryTamperedError;
}

describe('RepositoryGuard', () => {
  it('passes when nothing guarded changed, even with work done in the checkout', async () => {
    const { target, scope } = setUp();
    const guard = await RepositoryGuard.take(scope);
    target.commit('the user keeps working', { 'notes.txt': 'notes\n' });
    target.git(['branch', 'feature']);
    await expect(guard.verify('coder attempt 1')).resolves.toBeUndefined();
  });

  it('finds a planted hook, core.hooksPath and core.fsmonitor, names them, and puts everything back', async () => {
    const { target, scope } = setUp();
    const configPath = path.join(scope.gitCommonDirectory, 'config');
    const configBefore = readFileSync(configPath, 'utf8');
    const guard = await RepositoryGuard.take(scope);
    const hook = path.join(scope.gitCommonDirectory, 'hooks', 'post-commit');
    writeFileSync(hook, '#!/bin/sh\ntouch /tmp/pwned\n', { mode: 0o755 });
    target.git(['config', 'core.hooksPath', '/tmp/evil-hooks']);
    target.git(['config', 'core.fsmonitor', 'touch /tmp/pwned']);

    const error = await tamperedBy(guard);

    expect(error.code).toBe('REPOSITORY_TAMPERED');
    expect(error.findings).toEqual([
      { what: "the repository's git config", change: 'modified', path: configPath },
      { what: "the repository's git hooks", change: 'added', path: hook },
    ]);
    expect(error.message).toContain('coder attempt 1');
    expect(error.message).toContain('hooks/post-commit');
    expect(existsSync(hook)).toBe(false);
    expect(readFileSync(configPath, 'utf8')).toBe(configBefore);
  });

  it('finds lines added to the shared info/exclude that would hide the user’s files', async () => {
    const { scope } = setUp();
    const exclude = path.join(scope.gitCommonDirectory, 'info', 'exclude');
    const before = readFileSync(exclude, 'utf8');
    const guard = await RepositoryGuard.take(scope);
    appendFileSync(exclude, '*.secret\nsrc/\n');
    const error = await tamperedBy(guard);
    expect(error.findings.map((finding) => finding.path)).toEqual([exclude]);
    expect(readFileSync(exclude, 'utf8')).toBe(before);
  });

  it('finds a write to the user’s global git config (the next `git commit` would run a hook)', async () => {
    const { scope } = setUp();
    const global = path.join(scope.homeDirectory, '.gitconfig');
    const xdgConfig = path.join(scope.homeDirectory, '.config', 'git', 'config');
    const guard = await RepositoryGuard.take(scope);
    appendFileSync(global, '[core]\n\thooksPath = /tmp/evil\n');
    mkdirSync(path.dirname(xdgConfig), { recursive: true });
    writeFileSync(xdgConfig, '[core]\n\tfsmonitor = touch /tmp/pwned\n');
    const error = await tamperedBy(guard);
    expect(error.findings).toEqual([
      { what: 'your global git config', change: 'added', path: xdgConfig },
      { what: 'your global git config', change: 'modified', path: global },
    ]);
    expect(readFileSync(global, 'utf8')).toBe('[user]\n\tname = Someone\n');
    expect(existsSync(xdgConfig)).toBe(false);
  });

  it('finds the protocol, snodo’s config and its signing key changed', async () => {
    const { target, scope } = setUp();
    const guard = await RepositoryGuard.take(scope);
    writeFileSync(path.join(target.root, '.snodo', 'protocol.yml'), 'protocol_id: weakened\n');
    writeFileSync(path.join(scope.snodoHome, 'config.yml'), 'coders: {}\n');
    rmSync(path.join(scope.snodoHome, 'keys', 'audit-signing-key.pem'));
    const error = await tamperedBy(guard);
    expect(error.findings.map((finding) => `${finding.what} ${finding.change}`)).toEqual([
      'the protocol modified',
      "snodo's config modified",
      "snodo's signing key deleted",
    ]);
    expect(readFileSync(path.join(scope.snodoHome, 'keys', 'audit-signing-key.pem'), 'utf8')).toBe('KEY\n');
  });

  it('watches the directory a configured core.hooksPath names', async () => {
    const { target, scope } = setUp();
    const hooks = path.join(target.temporaryDirectory, 'team-hooks');
    mkdirSync(hooks);
    target.git(['config', 'core.hooksPath', hooks]);
    const guard = await RepositoryGuard.take(scope);
    writeFileSync(path.join(hooks, 'pre-push'), '#!/bin/sh\n');
    const error = await tamperedBy(guard);
    expect(error.findings).toEqual([
      { what: 'the hooks core.hooksPath names', change: 'added', path: path.join(hooks, 'pre-push') },
    ]);
  });

  it('adds the findings of extra snapshots (the audit trail’s) and restores them too', async () => {
    const { scope } = setUp();
    let restored = false;
    const guard = await RepositoryGuard.take(scope, [
      async () => ({
        check: async () => ({
          findings: [{ what: 'the audit log', change: 'lost 3 events (size 10 → 7)' }],
          restore: async () => {
            restored = true;
          },
        }),
      }),
    ]);
    const error = await tamperedBy(guard);
    expect(error.findings).toEqual([{ what: 'the audit log', change: 'lost 3 events (size 10 → 7)' }]);
    expect(error.message).toContain('the audit log: lost 3 events');
    expect(restored).toBe(true);
  });
});
