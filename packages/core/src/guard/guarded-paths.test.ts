import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestRepository, type TestRepository } from '../git/test-repository.js';
import { type GuardScope, guardedPaths } from './guarded-paths.js';

const repositories: TestRepository[] = [];
afterEach(() => {
  for (const created of repositories.splice(0)) created.cleanup();
});

function setUp(env: (home: string) => Record<string, string> = (home) => ({ HOME: home })) {
  const target = createTestRepository();
  repositories.push(target);
  const home = path.join(target.temporaryDirectory, 'home');
  mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
  const scope: GuardScope = {
    repositoryRoot: target.root,
    gitCommonDirectory: path.join(target.root, '.git'),
    snodoHome: path.join(target.temporaryDirectory, 'snodo-home'),
    homeDirectory: home,
    env: env(home),
  };
  return { target, home, scope };
}

async function watchedHooks(scope: GuardScope): Promise<string[]> {
  return (await guardedPaths(scope))
    .filter((entry) => entry.label === 'the hooks core.hooksPath names')
    .map((entry) => entry.path)
    .sort();
}

describe('guardedPaths: the directories core.hooksPath names (one git config read)', () => {
  it('finds them in the repository config, ~/.gitconfig, the XDG config and an included file', async () => {
    const { target, home, scope } = setUp();
    target.git(['config', 'core.hooksPath', 'relative-hooks']);
    writeFileSync(
      path.join(home, '.gitconfig'),
      `[core]\n\thooksPath = ~/home-hooks\n[include]\n\tpath = ${path.join(home, 'included')}\n`,
    );
    writeFileSync(path.join(home, 'included'), '[core]\n\thooksPath = /opt/included-hooks\n');
    // Before, only the repository config and ~/.gitconfig were read: this one went unwatched.
    writeFileSync(path.join(home, '.config', 'git', 'config'), '[core]\n\thooksPath = /opt/xdg-hooks\n');
    expect(await watchedHooks(scope)).toEqual(
      [
        path.join(home, 'home-hooks'),
        '/opt/included-hooks',
        '/opt/xdg-hooks',
        path.join(target.root, 'relative-hooks'),
      ].sort(),
    );
  });

  it("reads the scope's GIT_CONFIG_GLOBAL instead of ~/.gitconfig, and skips /dev/null", async () => {
    const { target, home, scope } = setUp((home) => ({
      HOME: home,
      GIT_CONFIG_GLOBAL: path.join(home, 'custom-global'),
    }));
    writeFileSync(path.join(home, '.gitconfig'), '[core]\n\thooksPath = /opt/not-read\n');
    writeFileSync(path.join(home, 'custom-global'), '[core]\n\thooksPath = /opt/global-hooks\n');
    target.git(['config', 'core.hooksPath', '/dev/null']);
    expect(await watchedHooks(scope)).toEqual(['/opt/global-hooks']);
  });

  it('watches none when nothing sets it (snodo’s own -c core.hooksPath=/dev/null is not the user’s)', async () => {
    const { scope } = setUp();
    expect(await watchedHooks(scope)).toEqual([]);
  });
});
