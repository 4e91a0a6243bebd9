import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SnodoError } from '@snodo/foundation';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GitMetadataTamperedError } from '../errors/git-metadata-tampered-error.js';
import { SnodoMutationError } from '../errors/snodo-mutation-error.js';
import { listFilesRecursively } from '../in-place/file-state.js';
import { writeFakeCli } from '../testing/fake-cli.js';
import { FakeCoder, makeRequest } from '../testing/fake-coder.js';
import {
  createTemporaryRepository,
  isolateGitConfiguration,
  type TemporaryRepository,
} from '../testing/temporary-repository.js';

let repository: TemporaryRepository;

beforeAll(() => isolateGitConfiguration());
beforeEach(() => {
  repository = createTemporaryRepository();
});
afterEach(() => repository.cleanup());

/** Every file under `directory` with the SHA-256 of its bytes, relative paths. */
async function fingerprint(directory: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const filePath of await listFilesRecursively(directory)) {
    result[path.relative(directory, filePath)] = createHash('sha256')
      .update(readFileSync(filePath))
      .digest('hex');
  }
  return result;
}

async function runExpectingError(): Promise<unknown> {
  return new FakeCoder().doRun(makeRequest(repository)).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('SubprocessCoderAdapter guards .snodo/', () => {
  it('blocks a change to .snodo/protocol.yml, restores .snodo/ byte for byte and leaves no commit', async () => {
    const snodoDirectory = path.join(repository.workspace, '.snodo');
    const before = await fingerprint(snodoDirectory);
    const start = repository.git(['rev-parse', 'HEAD']).trim();
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `fs.writeFileSync('.snodo/protocol.yml', 'protocol_id: owned\\n');
       fs.mkdirSync('.snodo/extra/deep', { recursive: true });
       fs.writeFileSync('.snodo/extra/deep/new.yml', 'x: 1\\n');
       fs.appendFileSync('src/app.txt', 'legit change\\n');
       commitAs('tweak the rules');`,
    );

    const error = await runExpectingError();

    expect(SnodoMutationError.isInstance(error)).toBe(true);
    expect((error as SnodoError).code).toBe('SNODO_MUTATION_BLOCKED');
    expect((error as SnodoMutationError).paths).toEqual(['.snodo/extra/deep/new.yml', '.snodo/protocol.yml']);
    expect(await fingerprint(snodoDirectory)).toEqual(before);
    expect(existsSync(path.join(snodoDirectory, 'extra'))).toBe(false);
    expect(repository.git(['rev-parse', 'HEAD']).trim()).toBe(start);
    expect(repository.git(['symbolic-ref', 'HEAD']).trim()).toBe('refs/heads/snodo/j_test1');
    // The coder's other edit stays in the worktree for inspection, uncommitted.
    expect(repository.git(['status', '--porcelain'])).toBe(' M src/app.txt\n');
  });

  it('blocks deleting a file under .snodo/ and brings it back', async () => {
    writeFakeCli(repository.binDirectory, 'fake-coder', `fs.rmSync('.snodo', { recursive: true });`);

    const error = await runExpectingError();

    expect((error as SnodoMutationError).paths).toEqual(['.snodo/protocol.yml']);
    expect(repository.read('.snodo/protocol.yml')).toBe('protocol_id: demo\nmodes: []\n');
    expect(repository.git(['status', '--porcelain'])).toBe('');
  });
});

describe('SubprocessCoderAdapter guards git hooks and config', () => {
  it('blocks a planted hook, removes it, and the hook never runs during snodo’s own git calls', async () => {
    const canary = path.join(repository.evidence, 'hook-ran');
    const hookPath = path.join(repository.main, '.git', 'hooks', 'post-commit');
    const start = repository.git(['rev-parse', 'HEAD']).trim();
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `const hooks = path.resolve(git('rev-parse', '--git-common-dir').trim(), 'hooks');
       fs.writeFileSync(path.join(hooks, 'post-commit'), '#!/bin/sh\\necho ran >> ${canary}\\n', { mode: 0o755 });
       fs.appendFileSync('src/app.txt', 'change\\n');`,
    );

    const error = await runExpectingError();

    expect(GitMetadataTamperedError.isInstance(error)).toBe(true);
    expect((error as SnodoError).code).toBe('GIT_METADATA_TAMPERED');
    expect((error as GitMetadataTamperedError).changes).toEqual([{ path: hookPath, change: 'added' }]);
    expect(existsSync(hookPath)).toBe(false);
    expect(existsSync(canary)).toBe(false);
    expect(repository.git(['rev-parse', 'HEAD']).trim()).toBe(start);
  });

  it('blocks core.hooksPath set in the shared config and restores the config', async () => {
    const configPath = path.join(repository.main, '.git', 'config');
    const configBefore = readFileSync(configPath, 'utf8');
    const canary = path.join(repository.evidence, 'hook-ran');
    const evilHooks = path.join(repository.evidence, 'evil-hooks');
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `fs.mkdirSync(${JSON.stringify(evilHooks)});
       fs.writeFileSync(path.join(${JSON.stringify(evilHooks)}, 'pre-commit'), '#!/bin/sh\\necho ran >> ${canary}\\n', { mode: 0o755 });
       git('config', 'core.hooksPath', ${JSON.stringify(evilHooks)});
       fs.appendFileSync('src/app.txt', 'change\\n');`,
    );

    const error = await runExpectingError();

    expect(GitMetadataTamperedError.isInstance(error)).toBe(true);
    expect((error as GitMetadataTamperedError).changes).toEqual([{ path: configPath, change: 'modified' }]);
    expect(readFileSync(configPath, 'utf8')).toBe(configBefore);
    expect(repository.git(['config', '--list'], repository.main)).not.toContain('core.hookspath');
    expect(existsSync(canary)).toBe(false);
  });

  it('blocks a coder that switches the worktree to another branch and switches it back', async () => {
    writeFakeCli(repository.binDirectory, 'fake-coder', `git('checkout', '-q', '-b', 'elsewhere');`);

    const error = await runExpectingError();

    expect(GitMetadataTamperedError.isInstance(error)).toBe(true);
    expect(repository.git(['symbolic-ref', 'HEAD']).trim()).toBe('refs/heads/snodo/j_test1');
  });
});
