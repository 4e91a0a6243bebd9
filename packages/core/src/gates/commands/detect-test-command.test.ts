import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectTestCommand } from './detect-test-command.js';

let directory: string;
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function project(files: Record<string, string>): string {
  directory = mkdtempSync(join(tmpdir(), 'snodo-detect-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(directory, name), content);
  return directory;
}

const withTestScript = JSON.stringify({ scripts: { test: 'vitest run' } });

describe('detectTestCommand', () => {
  it.each<[string, Record<string, string>, string[] | undefined, string | undefined]>([
    ['npm by default', { 'package.json': withTestScript }, ['npm', 'test'], 'package.json'],
    [
      'pnpm by lockfile',
      { 'package.json': withTestScript, 'pnpm-lock.yaml': '' },
      ['pnpm', 'test'],
      'package.json',
    ],
    [
      'yarn by lockfile',
      { 'package.json': withTestScript, 'yarn.lock': '' },
      ['yarn', 'test'],
      'package.json',
    ],
    [
      'bun by lockfile runs the script',
      { 'package.json': withTestScript, 'bun.lock': '' },
      ['bun', 'run', 'test'],
      'package.json',
    ],
    [
      'packageManager field wins over lockfile',
      {
        'package.json': JSON.stringify({ packageManager: 'pnpm@10.0.0', scripts: { test: 'x' } }),
        'package-lock.json': '',
      },
      ['pnpm', 'test'],
      'package.json',
    ],
    ['pyproject.toml', { 'pyproject.toml': '[project]\n' }, ['pytest'], 'pyproject.toml'],
    ['setup.cfg', { 'setup.cfg': '[metadata]\n' }, ['pytest'], 'setup.cfg'],
    ['setup.py', { 'setup.py': 'setup()\n' }, ['pytest'], 'setup.py'],
    ['Cargo.toml', { 'Cargo.toml': '[package]\n' }, ['cargo', 'test'], 'Cargo.toml'],
    [
      'Makefile with test target',
      { Makefile: 'build:\n\ttrue\ntest: build\n\ttrue\n' },
      ['make', 'test'],
      'Makefile',
    ],
    ['go.mod', { 'go.mod': 'module x\n' }, ['go', 'test', './...'], 'go.mod'],
    [
      'npm placeholder falls through to pyproject',
      {
        'package.json': JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }),
        'pyproject.toml': '',
      },
      ['pytest'],
      'pyproject.toml',
    ],
    [
      'Makefile without test target',
      { Makefile: 'TEST := 1\ntest := yes\nbuild:\n\ttrue\n' },
      undefined,
      undefined,
    ],
    ['package.json without scripts', { 'package.json': '{}' }, undefined, undefined],
    ['nothing', {}, undefined, undefined],
  ])('%s', (_, files, argv, marker) => {
    const detection = detectTestCommand(project(files));
    if (argv === undefined) {
      expect(detection.found).toBe(false);
    } else {
      expect(detection).toEqual({ found: true, command: { argv, marker } });
    }
  });

  it('explains why markers gave no command', () => {
    const detection = detectTestCommand(
      project({
        'package.json': JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }),
        Makefile: 'all:\n\ttrue\n',
      }),
    );
    expect(detection).toEqual({
      found: false,
      notes: [
        `package.json's "test" script is npm's placeholder ("no test specified")`,
        'Makefile has no "test:" target',
      ],
    });
  });
});
