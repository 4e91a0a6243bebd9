import { afterEach, describe, expect, it } from 'vitest';
import { diffNameStatus } from '../../git/diff-name-status.js';
import { createTemporaryRepository, type TemporaryRepository } from '../../testing/temporary-repository.js';
import { loadDiffContext } from './load-diff-context.js';

const repositories: TemporaryRepository[] = [];
afterEach(() => {
  for (const repository of repositories.splice(0)) repository.remove();
});

function attempt(): { repository: TemporaryRepository; base: string; head: string } {
  const repository = createTemporaryRepository();
  repositories.push(repository);
  repository.write('src/old-name.ts', 'export const value = 1;\n'.repeat(20));
  const base = repository.commit('base');
  repository.git('mv', 'src/old-name.ts', 'src/new-name.ts');
  repository.write('docs/added.md', '# added\n');
  const head = repository.commit('attempt');
  return { repository, base, head };
}

// The pipeline checks each attempt with `diffNameStatus` and, on a first attempt, hands that list to the
// gates' diff instead of running the same `git diff --name-status -M` again.
describe('loadDiffContext with the changes an attempt was checked with', () => {
  it('gives the gates the same files as its own diff would', async () => {
    const { repository, base, head } = attempt();
    const entries = await diffNameStatus({ cwd: repository.path, from: base, to: head });
    const own = await loadDiffContext({ cwd: repository.path, baseCommit: base });
    const reused = await loadDiffContext({
      cwd: repository.path,
      baseCommit: base,
      knownChanges: { from: base, to: head, entries },
    });
    expect(reused.files).toEqual(own.files);
    expect(reused.files).toEqual([
      { path: 'docs/added.md', status: 'A' },
      { path: 'src/new-name.ts', status: 'R', previousPath: 'src/old-name.ts' },
    ]);
    expect(reused.patch).toBe(own.patch);
  });

  it('ignores a list of another range (a fix attempt: its change is not the whole diff)', async () => {
    const { repository, base } = attempt();
    repository.write('later.txt', 'later\n');
    const fix = repository.commit('fix attempt');
    const previous = repository.git('rev-parse', 'HEAD~1');
    const context = await loadDiffContext({
      cwd: repository.path,
      baseCommit: base,
      knownChanges: { from: previous, to: fix, entries: [{ status: 'A', path: 'later.txt' }] },
    });
    expect(context.files.map((file) => file.path)).toEqual(['docs/added.md', 'later.txt', 'src/new-name.ts']);
  });
});
