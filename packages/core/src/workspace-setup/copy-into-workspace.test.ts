import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTemporaryRepository, type TemporaryRepository } from '../testing/temporary-repository.js';
import { copyIntoWorkspace } from './copy-into-workspace.js';

let repository: TemporaryRepository;
let workspace: string;
beforeEach(() => {
  repository = createTemporaryRepository();
  workspace = mkdtempSync(join(tmpdir(), 'snodo-copy-target-'));
});
afterEach(() => {
  repository.remove();
  rmSync(workspace, { recursive: true, force: true });
});

describe('copyIntoWorkspace', () => {
  it('copies untracked files named literally or by glob, keeping paths and modes', async () => {
    repository.write('.env', 'API_URL=http://localhost\n');
    repository.write('config/local.json', '{"debug":true}\n');
    repository.write('config/other.local.json', '{}\n');
    repository.write('config/shared.json', '{}\n');
    writeFileSync(join(repository.path, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    const result = await copyIntoWorkspace({
      repositoryRoot: repository.path,
      workspacePath: workspace,
      patterns: ['.env', 'config/*local.json', 'run.sh', 'missing/*.txt'],
    });
    expect(result.copied).toEqual(['.env', 'config/local.json', 'config/other.local.json', 'run.sh']);
    expect(result.unmatched).toEqual(['missing/*.txt']);
    expect(readFileSync(join(workspace, '.env'), 'utf8')).toBe('API_URL=http://localhost\n');
    expect(existsSync(join(workspace, 'config/shared.json'))).toBe(false);
    expect(statSync(join(workspace, 'run.sh')).mode & 0o777).toBe(0o755);
  });

  it('leaves tracked files alone, so uncommitted edits never reach the task diff', async () => {
    repository.write('settings.json', '{"committed":true}\n');
    repository.commit('settings');
    repository.write('settings.json', '{"my uncommitted edit":true}\n');
    const result = await copyIntoWorkspace({
      repositoryRoot: repository.path,
      workspacePath: workspace,
      patterns: ['*.json'],
    });
    expect(result.copied).toEqual([]);
    expect(result.skipped).toEqual([{ path: 'settings.json', reason: expect.stringContaining('tracked') }]);
    expect(existsSync(join(workspace, 'settings.json'))).toBe(false);
  });

  it('does not copy a symbolic link, nor through a linked directory, to a file outside the repository', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'snodo-copy-outside-'));
    writeFileSync(join(outside, 'secret'), 'host secret\n');
    symlinkSync(join(outside, 'secret'), join(repository.path, '.env'));
    symlinkSync(outside, join(repository.path, 'linked'));
    try {
      const result = await copyIntoWorkspace({
        repositoryRoot: repository.path,
        workspacePath: workspace,
        patterns: ['.env', 'linked/secret'],
      });
      expect(result.copied).toEqual([]);
      expect(result.skipped.map((entry) => entry.path)).toEqual(['.env', 'linked/secret']);
      expect(existsSync(join(workspace, '.env'))).toBe(false);
      expect(existsSync(join(workspace, 'linked'))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('does not write through a link in the workspace that points outside it', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'snodo-copy-escape-'));
    symlinkSync(outside, join(workspace, 'config'));
    repository.write('config/local.json', '{}\n');
    try {
      const result = await copyIntoWorkspace({
        repositoryRoot: repository.path,
        workspacePath: workspace,
        patterns: ['config/local.json'],
      });
      expect(result.copied).toEqual([]);
      expect(existsSync(join(outside, 'local.json'))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('refuses a pattern that climbs out of the repository, even without the protocol schema', async () => {
    await expect(
      copyIntoWorkspace({ repositoryRoot: repository.path, workspacePath: workspace, patterns: ['../x'] }),
    ).rejects.toThrow('climbs out of the repository');
  });
});
