import { afterEach, describe, expect, it } from 'vitest';
import {
  commitAndDiff,
  createTemporaryRepository,
  type TemporaryRepository,
} from '../../testing/temporary-repository.js';
import { isSnodoPath, snodoMutationGuard } from './snodo-mutation-guard.js';

let repository: TemporaryRepository;
afterEach(() => repository?.remove());

function setup(): TemporaryRepository {
  const created = createTemporaryRepository();
  created.write('.snodo/protocol.yml', 'protocol_id: p\n');
  created.write('docs/rules.yml', 'a long line so that git detects the rename reliably, twice over\n');
  created.commit('setup');
  return created;
}

describe('.snodo mutation guard on a real diff', () => {
  it.each([
    [
      'adds a file under .snodo/',
      'A',
      (repo: TemporaryRepository) => repo.write('.snodo/extra.yml', 'x: 1\n'),
    ],
    [
      'modifies the protocol',
      'M',
      (repo: TemporaryRepository) => repo.write('.snodo/protocol.yml', 'protocol_id: q\n'),
    ],
    ['deletes the protocol', 'D', (repo: TemporaryRepository) => repo.git('rm', '-q', '.snodo/protocol.yml')],
    [
      'renames a file into .snodo/',
      'R',
      (repo: TemporaryRepository) => repo.git('mv', 'docs/rules.yml', '.snodo/rules.yml'),
    ],
    [
      'renames the protocol out of .snodo/',
      'R',
      (repo: TemporaryRepository) => repo.git('mv', '.snodo/protocol.yml', 'protocol.yml'),
    ],
  ])('blocks a change that %s', async (_, status, change) => {
    repository = setup();
    const diff = await commitAndDiff(repository, change);
    expect(diff.files.map((file) => file.status)).toEqual([status]);
    const result = snodoMutationGuard({ diff, task: 't' }, {});
    expect(result.passed).toBe(false);
    expect(result.justification).toContain('.snodo/');
  });

  it('passes a change outside .snodo/', async () => {
    repository = setup();
    const diff = await commitAndDiff(repository, (repo) => repo.write('src/snodo-helper.ts', 'x\n'));
    expect(snodoMutationGuard({ diff, task: 't' }, {}).passed).toBe(true);
  });

  it('recognises .snodo paths case-insensitively and only at the root', () => {
    expect(isSnodoPath('.snodo/protocol.yml')).toBe(true);
    expect(isSnodoPath('.SNODO/protocol.yml')).toBe(true);
    expect(isSnodoPath('.snodo')).toBe(true);
    expect(isSnodoPath('.snodorc')).toBe(false);
    expect(isSnodoPath('src/.snodo/x')).toBe(false);
  });
});
