/**
 * Test support (not exported, not built): a directory tree laid out like a sandboxed job (a writable
 * workspace with a read-only directory inside, a private HOME and TMPDIR, a "user home" with a secret that
 * must be hidden, a file outside everything) and the `CoderV1Sandbox` core would build for it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CoderV1Sandbox } from '../v1/coder-v1-sandbox.js';

/** The tree and its sandbox. */
export interface SandboxLayout {
  readonly root: string;
  /** Writable inside. */
  readonly workspace: string;
  /** `<workspace>/vendor`: read-only inside, although the workspace is writable. */
  readonly readOnlyInWorkspace: string;
  /** Hidden inside; holds `secret.txt`. */
  readonly userHome: string;
  /** The private HOME (writable), also `sandbox.environment.HOME`. */
  readonly privateHome: string;
  /** The private TMPDIR (writable), also `sandbox.environment.TMPDIR`. */
  readonly privateTmp: string;
  /** A directory outside every mount: read-only inside. */
  readonly outside: string;
  /** Builds the sandbox for this tree. */
  sandbox(overrides?: Partial<CoderV1Sandbox>): CoderV1Sandbox;
  cleanup(): void;
}

/** Creates the tree under the system temporary directory. */
export function createSandboxLayout(executable = '/usr/bin/bwrap'): SandboxLayout {
  const root = mkdtempSync(path.join(os.tmpdir(), 'snodo-sandbox-'));
  const at = (...parts: string[]) => path.join(root, ...parts);
  const layout = {
    root,
    workspace: at('workspace'),
    readOnlyInWorkspace: at('workspace', 'vendor'),
    userHome: at('user-home'),
    privateHome: at('job', 'home'),
    privateTmp: at('job', 'tmp'),
    outside: at('outside'),
  };
  for (const directory of Object.values(layout)) mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(layout.userHome, 'secret.txt'), 'the signing key\n');
  writeFileSync(path.join(layout.readOnlyInWorkspace, 'lib.txt'), 'vendored\n');
  return {
    ...layout,
    sandbox: (overrides = {}) => ({
      kind: 'bubblewrap',
      executable,
      mounts: [
        { type: 'hide', path: layout.userHome },
        { type: 'read-write', path: layout.workspace },
        { type: 'read-only', path: layout.readOnlyInWorkspace },
        { type: 'read-write', path: layout.privateHome },
        { type: 'read-write', path: layout.privateTmp },
      ],
      network: true,
      environment: { HOME: layout.privateHome, TMPDIR: layout.privateTmp },
      ...overrides,
    }),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
