import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDirectory } from './remove-directory.js';

let root: string;
let savedPath: string | undefined;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'snodo-remove-directory-'));
  savedPath = process.env.PATH;
});
afterEach(() => {
  process.env.PATH = savedPath;
  rmSync(root, { recursive: true, force: true });
});

describe('removeDirectory', () => {
  it('removes a tree with the system rm, not one a PATH entry puts first, and never follows a symlink', async () => {
    const outside = path.join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'keep.txt'), 'keep\n');
    const workspace = path.join(root, 'workspace');
    mkdirSync(path.join(workspace, 'deep', 'er'), { recursive: true });
    writeFileSync(path.join(workspace, 'deep', 'er', 'a.txt'), 'a\n');
    symlinkSync(outside, path.join(workspace, 'link-out'));
    // A repository's tool directory or a user's shim on PATH with an `rm` of its own.
    const shims = path.join(root, 'shims');
    mkdirSync(shims);
    const canary = path.join(root, 'shim-ran');
    writeFileSync(path.join(shims, 'rm'), `#!/bin/sh\ntouch '${canary}'\nexit 0\n`, { mode: 0o755 });
    process.env.PATH = `${shims}${path.delimiter}${savedPath}`;

    await removeDirectory(workspace);

    expect(existsSync(workspace)).toBe(false);
    expect(existsSync(canary)).toBe(false);
    expect(readdirSync(outside)).toEqual(['keep.txt']);
  });

  it('is quiet about a directory that is already gone', async () => {
    await expect(removeDirectory(path.join(root, 'never-there'))).resolves.toBeUndefined();
  });
});
