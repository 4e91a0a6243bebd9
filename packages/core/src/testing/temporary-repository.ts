import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DiffContext } from '../gates/constraints/diff-context.js';
import { loadDiffContext } from '../gates/constraints/load-diff-context.js';

/** A throwaway git repository for tests, independent of the machine's git config. */
export interface TemporaryRepository {
  /** Its directory. */
  readonly path: string;
  /** Runs git in it and returns stdout, trimmed. */
  git(...args: string[]): string;
  /** Writes a file (creating directories). */
  write(file: string, content: string): void;
  /** Stages everything and commits; returns the new sha. */
  commit(message: string): string;
  /** Deletes the directory. */
  remove(): void;
}

const environment = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

/** Creates an empty repository on branch `main` with one initial commit. */
export function createTemporaryRepository(): TemporaryRepository {
  const path = mkdtempSync(join(tmpdir(), 'snodo-gates-'));
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: path, env: environment, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  const repository: TemporaryRepository = {
    path,
    git,
    write(file, content) {
      const target = join(path, file);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    },
    commit(message) {
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    remove() {
      rmSync(path, { recursive: true, force: true });
    },
  };
  repository.write('README.md', '# fixture\n');
  repository.commit('initial');
  return repository;
}

/**
 * Records HEAD as the base, applies `change`, commits it, and returns the real diff base..HEAD, the way
 * the pipeline sees a coder's attempt.
 */
export async function commitAndDiff(
  repository: TemporaryRepository,
  change: (repository: TemporaryRepository) => void,
): Promise<DiffContext> {
  const base = repository.git('rev-parse', 'HEAD');
  change(repository);
  repository.commit('attempt');
  return loadDiffContext({ cwd: repository.path, baseCommit: base });
}
