import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxInvalidError } from '../errors/sandbox-invalid-error.js';
import type { CoderV1Sandbox, CoderV1SandboxMount } from '../v1/coder-v1-sandbox.js';
import { findHidingMount, wrapInSandbox } from './wrap-in-sandbox.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'snodo-wrap-'));
const at = (...parts: string[]) => path.join(root, ...parts);

beforeAll(() => {
  for (const directory of ['home', 'home/.local/bin', 'home/tools', 'workspace', 'objects', 'private-home']) {
    mkdirSync(at(directory), { recursive: true });
  }
  writeFileSync(at('home', 'secret.txt'), 'key\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function sandbox(mounts: CoderV1SandboxMount[], overrides: Partial<CoderV1Sandbox> = {}): CoderV1Sandbox {
  return {
    kind: 'bubblewrap',
    executable: '/usr/bin/bwrap',
    mounts,
    network: true,
    environment: { HOME: at('private-home'), TMPDIR: at('private-home', 'tmp') },
    ...overrides,
  };
}

const command = () => ({
  file: '/usr/bin/claude',
  args: ['-p', 'a prompt with spaces; $(rm -rf /)'],
  cwd: at('workspace'),
  env: { PATH: '/usr/bin', HOME: '/root', KEEP: 'yes' },
});

describe('wrapInSandbox', () => {
  it('builds the bwrap argv: read-only root, mounts parents first, isolation, cwd, then the command unchanged', () => {
    const wrapped = wrapInSandbox(
      sandbox([
        { type: 'read-write', path: at('workspace') },
        { type: 'read-only', path: at('home', 'tools') },
        { type: 'hide', path: at('home') },
        { type: 'read-write', path: at('home', 'inside'), source: at('private-home') },
      ]),
      command(),
    );
    expect(wrapped.file).toBe('/usr/bin/bwrap');
    expect(wrapped.args).toEqual([
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      // Depth 3 (the two under root), in the order given, then depth 4.
      '--bind',
      at('workspace'),
      at('workspace'),
      '--tmpfs',
      at('home'),
      '--ro-bind',
      at('home', 'tools'),
      at('home', 'tools'),
      '--bind',
      at('private-home'),
      at('home', 'inside'),
      // The hidden directory turns read-only once what is inside it is mounted.
      '--remount-ro',
      at('home'),
      '--unshare-pid',
      '--die-with-parent',
      '--cap-drop',
      'ALL',
      '--unshare-ipc',
      '--chdir',
      at('workspace'),
      '--',
      '/usr/bin/claude',
      '-p',
      'a prompt with spaces; $(rm -rf /)',
    ]);
  });

  it('leaves a hidden directory writable only where a later mount replaces it exactly', () => {
    const wrapped = wrapInSandbox(
      sandbox([
        { type: 'hide', path: at('home') },
        { type: 'read-write', path: at('home'), source: at('private-home') },
      ]),
      command(),
    );
    expect(wrapped.args).not.toContain('--remount-ro');
  });

  it('lays the sandbox environment over the command’s own', () => {
    const wrapped = wrapInSandbox(sandbox([]), command());
    expect(wrapped.env).toEqual({
      PATH: '/usr/bin',
      KEEP: 'yes',
      HOME: at('private-home'),
      TMPDIR: at('private-home', 'tmp'),
    });
  });

  it('adds a private network namespace only when network is false', () => {
    expect(wrapInSandbox(sandbox([], { network: false }), command()).args).toContain('--unshare-net');
    expect(wrapInSandbox(sandbox([], { network: true }), command()).args).not.toContain('--unshare-net');
  });

  it('skips hiding or exposing what does not exist, and hides a file with an empty one', () => {
    const wrapped = wrapInSandbox(
      sandbox([
        { type: 'hide', path: at('no-such-directory') },
        { type: 'read-only', path: at('objects-alias'), source: at('no-such-source') },
        { type: 'hide', path: at('home', 'secret.txt') },
      ]),
      command(),
    );
    expect(wrapped.args.join(' ')).not.toContain('no-such');
    expect(wrapped.args).toEqual(
      expect.arrayContaining(['--ro-bind', '/dev/null', at('home', 'secret.txt')]),
    );
    const index = wrapped.args.indexOf('/dev/null');
    expect(wrapped.args.slice(index - 1, index + 2)).toEqual([
      '--ro-bind',
      '/dev/null',
      at('home', 'secret.txt'),
    ]);
  });

  it('refuses a writable mount whose source is gone, naming it', () => {
    const run = () =>
      wrapInSandbox(sandbox([{ type: 'read-write', path: at('workspace'), source: at('gone') }]), command());
    expect(run).toThrow(SandboxInvalidError);
    try {
      run();
    } catch (error) {
      expect((error as SandboxInvalidError).code).toBe('SANDBOX_INVALID');
      expect((error as SandboxInvalidError).path).toBe(at('gone'));
      expect((error as Error).message).toContain(`${at('gone')} does not exist`);
    }
  });

  it.each([
    ['a relative mount path', sandbox([{ type: 'hide', path: 'relative/home' }]), command().cwd],
    ['a relative source', sandbox([{ type: 'read-only', path: at('x'), source: 'objects' }]), command().cwd],
    ['a relative working directory', sandbox([]), 'workspace'],
  ])('refuses %s', (_label, value, cwd) => {
    expect(() => wrapInSandbox(value, { ...command(), cwd })).toThrow(/is not an absolute path/);
  });
});

describe('findHidingMount', () => {
  const hidden = () =>
    sandbox([
      { type: 'hide', path: at('home') },
      { type: 'read-only', path: at('home', 'tools') },
    ]);

  it('names the hide mount that covers a path, unless a deeper mount puts it back', () => {
    expect(findHidingMount(hidden(), at('home', '.local', 'bin', 'claude'))).toBe(at('home'));
    expect(findHidingMount(hidden(), at('home', 'tools', 'node'))).toBeUndefined();
    expect(findHidingMount(hidden(), '/usr/bin/claude')).toBeUndefined();
    expect(findHidingMount(hidden(), `${at('home')}-other/claude`)).toBeUndefined();
  });
});
