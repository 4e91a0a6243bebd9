import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { gitVersion } from './git-version.js';

describe('gitVersion', () => {
  it('reads the version of the git snodo runs', async () => {
    const printed = execFileSync('git', ['--version'], { encoding: 'utf8' }).trim();
    const version = await gitVersion({ cwd: os.tmpdir() });
    expect(version.installed).toBe(true);
    expect(printed).toBe(`git version ${version.text}`);
    expect(version.major).toBeGreaterThanOrEqual(2);
  });

  it('says git is not installed when none is on PATH', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'snodo-no-git-'));
    const previous = process.env.PATH;
    process.env.PATH = empty;
    vi.resetModules();
    try {
      // A fresh module graph: the git executable is found once per process, this one finds none.
      const fresh = await import('./git-version.js');
      const version = await fresh.gitVersion({ cwd: empty });
      expect(version).toMatchObject({ installed: false, major: 0, minor: 0 });
    } finally {
      process.env.PATH = previous;
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
