import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PROTOCOL } from '../apps/cli/src/testing/cli-fixture.js';

// What a third-party adapter author sees: snodo's packages as `pnpm pack` publishes them, installed with npm
// into a plain project outside the workspace, the SDK README's adapter written to a package of its own, and
// the installed `snodo` binary running a task with it.
//
// NOTE: `npm install` runs with `--prefer-offline`: the external dependencies (zod, execa, the AI SDK…)
// come from npm's cache when they are there (a second run takes ~16 s here) and from the registry
// otherwise (~25 s the first time). `--offline` alone fails on a machine whose npm cache is cold.

const root = join(import.meta.dirname, '..');
const npmAvailable = spawnSync('npm', ['--version'], { stdio: 'ignore' }).status === 0;

/** The environment for npm and snodo: no `npm_config_*` or pnpm variables from the test runner. */
function cleanEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'LANG', 'TMPDIR']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

/** The SDK README's adapter, the first `ts` block under "Write an adapter", as the author wrote it. */
function readmeAdapterSource(): string {
  const readme = readFileSync(join(root, 'packages/coder-sdk/README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Write an adapter'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('the SDK README has no ts block under "## Write an adapter"');
  return block;
}

let directory: string;
let visibleDirectory: string;
let app: string;
let repository: string;
let snodoEnv: Record<string, string>;

function snodo(args: readonly string[]) {
  return spawnSync(process.execPath, [join(app, 'node_modules/snodo/dist/cli.js'), ...args], {
    cwd: repository,
    env: snodoEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repository, env: snodoEnv, encoding: 'utf8' }).trim();
}

describe.skipIf(!npmAvailable)(
  'the packed tarballs, installed with npm outside the workspace (skipped without npm)',
  () => {
    beforeAll(() => {
      if (!existsSync(join(root, 'apps/cli/dist/cli.js'))) {
        throw new Error('The packages are not built; run `pnpm build` (or `pnpm test`, which builds first).');
      }
      directory = mkdtempSync(join(tmpdir(), 'snodo-packed-'));
      // The coder's stand-in CLI runs inside the sandbox, where /tmp is private: it lives under /var/tmp.
      visibleDirectory = mkdtempSync(
        join(existsSync('/var/tmp') ? '/var/tmp' : tmpdir(), 'snodo-packed-bin-'),
      );
      const tarballs = join(directory, 'tarballs');
      mkdirSync(tarballs);
      // `snodo...`: the CLI and every workspace package it depends on, workspace:^ ranges made real versions.
      execFileSync('pnpm', ['--filter', 'snodo...', 'pack', '--pack-destination', tarballs], {
        cwd: root,
        stdio: 'ignore',
      });

      // The author's package: the README's TypeScript, built to JavaScript as the author's build would.
      const adapter = join(directory, 'snodo-coder-custom');
      mkdirSync(adapter);
      const built = ts.transpileModule(readmeAdapterSource(), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      writeFileSync(join(adapter, 'index.js'), built.outputText);
      writeFileSync(
        join(adapter, 'package.json'),
        JSON.stringify({
          name: 'snodo-coder-custom',
          version: '1.0.0',
          type: 'module',
          exports: { '.': { import: './index.js', default: './index.js' } },
          peerDependencies: { '@snodo/coder-sdk': '^0.1.0' },
        }),
      );
      execFileSync('npm', ['pack', '--pack-destination', tarballs], {
        cwd: adapter,
        env: cleanEnvironment(),
        stdio: 'ignore',
      });

      app = join(directory, 'app');
      mkdirSync(app);
      writeFileSync(join(app, 'package.json'), '{"name":"app","private":true}\n');
      const files = readdirSync(tarballs).map((file) => join(tarballs, file));
      execFileSync(
        'npm',
        ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...files],
        { cwd: app, env: cleanEnvironment(), stdio: 'ignore', timeout: 150_000 },
      );

      // The CLI the coder package stands for: `custom-coder run --dir <workspace> <prompt>` writes a file.
      const bin = join(visibleDirectory, 'bin');
      mkdirSync(bin);
      writeFileSync(
        join(bin, 'custom-coder'),
        [
          '#!/bin/sh',
          'if [ "$1" = "--version" ]; then echo "custom-coder 1.4.2"; exit 0; fi',
          'dir=""; while [ $# -gt 1 ]; do case "$1" in --dir) dir="$2"; shift 2;; *) shift;; esac; done',
          'printf "%s\\n" "written by custom-coder" > "$dir/custom.txt"',
        ].join('\n'),
      );
      chmodSync(join(bin, 'custom-coder'), 0o755);

      const home = join(directory, 'home');
      const snodoHome = join(directory, 'snodo-home');
      mkdirSync(home);
      mkdirSync(snodoHome);
      writeFileSync(
        join(snodoHome, 'config.yml'),
        'model: mock/pass\ncoders:\n  custom:\n    package: snodo-coder-custom\n',
        {
          mode: 0o600,
        },
      );
      snodoEnv = {
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        HOME: home,
        SNODO_HOME: snodoHome,
        CUSTOM_API_KEY: 'custom-test-key-0123456789',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 'Test',
        GIT_AUTHOR_EMAIL: 'test@example.com',
        GIT_COMMITTER_NAME: 'Test',
        GIT_COMMITTER_EMAIL: 'test@example.com',
        NO_COLOR: '1',
      };
      repository = join(directory, 'repository');
      mkdirSync(join(repository, '.snodo'), { recursive: true });
      git('init', '--quiet', '--initial-branch=main');
      writeFileSync(join(repository, 'README.md'), 'hello\n');
      writeFileSync(join(repository, '.snodo/protocol.yml'), TEST_PROTOCOL);
      git('add', '-A');
      git('commit', '--quiet', '-m', 'initial');
    }, 240_000);

    afterAll(() => {
      if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
      if (visibleDirectory !== undefined) rmSync(visibleDirectory, { recursive: true, force: true });
    }, 60_000);

    it('ships a LICENSE in every tarball and lets CommonJS require every package', () => {
      const installed = [
        'snodo',
        ...readdirSync(join(app, 'node_modules/@snodo')).map((name) => `@snodo/${name}`),
      ];
      expect(installed).toContain('@snodo/coder-sdk');
      for (const name of installed) {
        expect(existsSync(join(app, 'node_modules', name, 'LICENSE')), `${name}/LICENSE`).toBe(true);
      }
      // What a CommonJS project does: require() each package by name (Node's require(esm)).
      const loaded = execFileSync(
        process.execPath,
        [
          '-e',
          'for (const name of process.argv.slice(1)) console.log(name, Object.keys(require(name)).length > 0);',
          ...installed,
        ],
        { cwd: app, env: cleanEnvironment(), encoding: 'utf8' },
      );
      expect(loaded.trim().split('\n')).toEqual(installed.map((name) => `${name} true`));
      const sdk = execFileSync(
        process.execPath,
        ['-e', "console.log(typeof require('@snodo/coder-sdk').SubprocessCoderAdapter)"],
        { cwd: app, env: cleanEnvironment(), encoding: 'utf8' },
      );
      expect(sdk.trim()).toBe('function');
    }, 30_000);

    it('lists the README adapter, installed next to snodo, as installed and ready', () => {
      const listed = snodo(['coders', '--json']);
      expect(listed.status, listed.stderr).toBe(0);
      const custom = (JSON.parse(listed.stdout) as { coders: Record<string, unknown>[] }).coders.find(
        (coder) => coder.id === 'custom',
      );
      expect(custom, listed.stdout).toMatchObject({
        installed: true,
        ready: true,
        version: '1.4.2',
        modelPrefix: 'custom/',
      });
    }, 60_000);

    it('runs a task with it through the installed binary and lands the change', () => {
      const run = snodo(['run', 'Add custom.txt', '--coder', 'custom']);
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(git('show', 'main:custom.txt')).toBe('written by custom-coder');
      expect(git('log', '-2', '--format=%B', 'main')).toContain('Snodo-Coder: custom@1.4.2');
    }, 120_000);
  },
);
