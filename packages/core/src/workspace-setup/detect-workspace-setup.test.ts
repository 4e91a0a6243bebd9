import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectWorkspaceSetup } from './detect-workspace-setup.js';
import { resolveWorkspaceSetup } from './resolve-workspace-setup.js';

let directory: string;
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function project(files: Record<string, string>): string {
  directory = mkdtempSync(join(tmpdir(), 'snodo-setup-detect-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(directory, name), content);
  return directory;
}

describe('detectWorkspaceSetup', () => {
  it.each([
    [
      { 'package-lock.json': '{}' },
      'npm ci --prefer-offline --no-audit --no-fund',
      'lockfile package-lock.json',
    ],
    [{ 'pnpm-lock.yaml': '' }, 'pnpm install --frozen-lockfile --prefer-offline', 'lockfile pnpm-lock.yaml'],
    [
      { 'yarn.lock': '# yarn lockfile v1\n' },
      'yarn install --frozen-lockfile --prefer-offline',
      'lockfile yarn.lock',
    ],
    [{ 'yarn.lock': '__metadata:\n  version: 8\n' }, 'yarn install --immutable', 'lockfile yarn.lock'],
    [{ 'bun.lock': '{}' }, 'bun install --frozen-lockfile', 'lockfile bun.lock'],
    [{ 'bun.lockb': '' }, 'bun install --frozen-lockfile', 'lockfile bun.lockb'],
    [{ 'uv.lock': '', 'pyproject.toml': '' }, 'uv sync', 'lockfile uv.lock'],
    [{ 'go.mod': 'module x\n' }, 'go mod download', 'manifest go.mod'],
    [{ 'Cargo.lock': '', 'Cargo.toml': '' }, 'cargo fetch', 'lockfile Cargo.lock'],
  ])('%o → %s', (files, command, source) => {
    const detected = detectWorkspaceSetup(project(files));
    expect(detected?.command.join(' ')).toBe(command);
    expect(detected?.source).toBe(source);
    expect(detected?.tool).toBe(command.split(' ')[0]);
  });

  it('does not guess a pip install for a Python project without uv.lock', () => {
    expect(detectWorkspaceSetup(project({ 'pyproject.toml': '[project]\n' }))).toBeUndefined();
    expect(detectWorkspaceSetup(project({ 'setup.py': '' }))).toBeUndefined();
  });

  it('prefers the pnpm lockfile over a stray package-lock.json', () => {
    const detected = detectWorkspaceSetup(project({ 'pnpm-lock.yaml': '', 'package-lock.json': '{}' }));
    expect(detected?.tool).toBe('pnpm');
  });

  it('finds nothing in a README-only repository or a package.json without a lockfile', () => {
    expect(detectWorkspaceSetup(project({ 'README.md': '# x\n' }))).toBeUndefined();
    rmSync(directory, { recursive: true, force: true });
    expect(detectWorkspaceSetup(project({ 'package.json': '{"name":"x"}' }))).toBeUndefined();
  });
});

describe('resolveWorkspaceSetup', () => {
  it('auto runs what detection found, with its source and the default limit', () => {
    const plan = resolveWorkspaceSetup('auto', project({ 'package-lock.json': '{}' }));
    expect(plan).toEqual({
      kind: 'run',
      command: { argv: ['npm', 'ci', '--prefer-offline', '--no-audit', '--no-fund'] },
      display: 'npm ci --prefer-offline --no-audit --no-fund',
      source: 'lockfile package-lock.json',
      tool: 'npm',
      timeoutSeconds: 900,
    });
  });

  it('auto with nothing to detect, and none, skip and say why', () => {
    const empty = project({});
    expect(resolveWorkspaceSetup('auto', empty)).toMatchObject({
      kind: 'skip',
      reason: expect.stringContaining('detected nothing'),
    });
    expect(resolveWorkspaceSetup('none', empty)).toEqual({ kind: 'skip', reason: 'execution.setup is none' });
    expect(resolveWorkspaceSetup({ command: 'none', timeout_seconds: 5 }, empty).kind).toBe('skip');
  });

  it('runs a string through sh -c and a list directly, as the protocol wrote them, with its limit', () => {
    const here = project({ 'package-lock.json': '{}' });
    expect(resolveWorkspaceSetup('make deps && make gen', here)).toEqual({
      kind: 'run',
      command: { shell: 'make deps && make gen' },
      display: 'make deps && make gen',
      source: 'execution.setup',
      timeoutSeconds: 900,
    });
    expect(resolveWorkspaceSetup({ command: ['make', 'deps'], timeout_seconds: 60 }, here)).toMatchObject({
      command: { argv: ['make', 'deps'] },
      tool: 'make',
      timeoutSeconds: 60,
    });
  });
});
