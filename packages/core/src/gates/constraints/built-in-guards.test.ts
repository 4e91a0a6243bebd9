import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commitAndDiff,
  createTemporaryRepository,
  type TemporaryRepository,
} from '../../testing/temporary-repository.js';
import { knownSecretsGuard } from './known-secrets-guard.js';
import { workspaceSymlinkGuard } from './workspace-symlink-guard.js';

let repository: TemporaryRepository | undefined;
afterEach(() => {
  repository?.remove();
  repository = undefined;
});

function withLinks(links: Record<string, string>) {
  repository = createTemporaryRepository();
  return commitAndDiff(repository, (repo) => {
    repo.write('docs/readme.md', 'docs\n');
    for (const [link, target] of Object.entries(links)) symlinkSync(target, join(repo.path, link));
  });
}

describe('workspace_symlink_guard', () => {
  it('refuses links to absolute paths, out of the repository, and into .git or .snodo', async () => {
    const diff = await withLinks({
      passwd: '/etc/passwd',
      up: '../../outside.txt',
      'docs/sneaky': '../../x',
      hooks: '.git/hooks',
      rules: './.snodo/protocol.yml',
    });
    const result = workspaceSymlinkGuard({ diff, task: 't' }, {});
    expect(result.passed).toBe(false);
    expect(result.findings?.map((finding) => finding.path).sort()).toEqual([
      'docs/sneaky',
      'hooks',
      'passwd',
      'rules',
      'up',
    ]);
    expect(result.findings?.find((finding) => finding.path === 'passwd')?.message).toContain(
      'absolute path /etc/passwd',
    );
  });

  it('allows links that stay inside the repository', async () => {
    const diff = await withLinks({ 'docs/latest.md': 'readme.md', 'top.md': 'docs/readme.md' });
    expect(workspaceSymlinkGuard({ diff, task: 't' }, {})).toMatchObject({ passed: true });
  });
});

describe('known_secrets_guard', () => {
  const key = 'sk-live-0123456789abcdefghijklmnopqrstuv';

  it('finds a held key written raw or base64-encoded into the change', async () => {
    repository = createTemporaryRepository();
    const diff = await commitAndDiff(repository, (repo) => {
      repo.write('raw.txt', `token=${key}\n`);
      repo.write('encoded.txt', `blob ${Buffer.from(`prefix:${key}:suffix`).toString('base64')}\n`);
      repo.write('clean.txt', 'nothing here\n');
    });
    const result = knownSecretsGuard({ diff, task: 't', knownSecrets: [key] }, {});
    expect(result.passed).toBe(false);
    expect(result.findings?.map((finding) => finding.path).sort()).toEqual(['encoded.txt', 'raw.txt']);
    expect(JSON.stringify(result)).not.toContain(key);
  });

  it('passes when snodo holds no secret or none is in the change', async () => {
    repository = createTemporaryRepository();
    const diff = await commitAndDiff(repository, (repo) => repo.write('a.txt', 'plain\n'));
    expect(knownSecretsGuard({ diff, task: 't' }, {}).passed).toBe(true);
    expect(knownSecretsGuard({ diff, task: 't', knownSecrets: [key] }, {}).passed).toBe(true);
  });
});
