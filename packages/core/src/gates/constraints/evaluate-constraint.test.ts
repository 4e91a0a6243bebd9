import { afterEach, describe, expect, it } from 'vitest';
import {
  commitAndDiff,
  createTemporaryRepository,
  type TemporaryRepository,
} from '../../testing/temporary-repository.js';
import { evaluateBuiltInGuards, evaluateConstraint } from './evaluate-constraint.js';
import { BUILT_IN_PREDICATE_NAMES, createPredicateRegistry } from './predicate-registry.js';

let repository: TemporaryRepository;
afterEach(() => repository?.remove());

async function context() {
  repository = createTemporaryRepository();
  const diff = await commitAndDiff(repository, (repo) => repo.write('lib/outside.ts', 'x\n'));
  return { diff, task: 'add a helper' };
}

describe('evaluateConstraint', () => {
  it('turns a failing predicate into a verdict with the constraint severity (default blocker)', async () => {
    const predicateContext = await context();
    const registry = createPredicateRegistry();
    const blocker = evaluateConstraint(
      {
        constraint_id: 'scope',
        description: 'stay in src',
        predicate: 'files_in_scope',
        params: { scope_paths: ['src/**'] },
      },
      predicateContext,
      registry,
    );
    expect(blocker).toMatchObject({
      gateId: 'scope',
      gateType: 'files_in_scope',
      kind: 'constraint',
      severity: 'blocker',
      error: false,
    });
    expect(blocker.justification).toContain('scope (stay in src)');
    expect(blocker.findings.map((finding) => finding.path)).toEqual(['lib/outside.ts']);

    const warn = evaluateConstraint(
      {
        constraint_id: 'scope',
        predicate: 'files_in_scope',
        params: { scope_paths: ['src/**'] },
        severity: 'warn',
      },
      predicateContext,
      registry,
    );
    expect(warn).toMatchObject({ severity: 'warn', error: false });
  });

  it('passes when the predicate holds', async () => {
    const verdict = evaluateConstraint(
      { constraint_id: 'scope', predicate: 'files_in_scope', params: { scope_paths: ['lib/**'] } },
      await context(),
      createPredicateRegistry(),
    );
    expect(verdict).toMatchObject({ severity: 'pass', error: false, findings: [] });
  });

  it('makes an unknown predicate a blocker with error, listing the known ones', async () => {
    const verdict = evaluateConstraint(
      { constraint_id: 'typo', predicate: 'files_in_scop' },
      await context(),
      createPredicateRegistry(),
    );
    expect(verdict).toMatchObject({ severity: 'blocker', error: true });
    expect(verdict.justification).toContain('files_in_scope');
  });

  it('makes a predicate that throws an error verdict', async () => {
    const registry = createPredicateRegistry();
    registry.register('explodes', () => {
      throw new Error('boom');
    });
    const verdict = evaluateConstraint(
      { constraint_id: 'x', predicate: 'explodes', severity: 'warn' },
      await context(),
      registry,
    );
    expect(verdict).toMatchObject({ severity: 'blocker', error: true });
    expect(verdict.justification).toContain('boom');
  });

  it('makes an invalid constraint severity an error verdict', async () => {
    const verdict = evaluateConstraint(
      { constraint_id: 'x', predicate: 'files_in_scope', severity: 'fatal' },
      await context(),
      createPredicateRegistry(),
    );
    expect(verdict).toMatchObject({ error: true });
  });

  it('reports a constraint without predicate as documentation only', async () => {
    const verdict = evaluateConstraint(
      { constraint_id: 'doc', description: 'be nice' },
      await context(),
      createPredicateRegistry(),
    );
    expect(verdict).toMatchObject({ severity: 'pass', error: false, evidence: { evaluated: false } });
    expect(verdict.justification).toContain('not evaluated');
  });

  it('runs the built-in guards, the .snodo guard first', async () => {
    repository = createTemporaryRepository();
    const diff = await commitAndDiff(repository, (repo) => repo.write('.snodo/protocol.yml', 'x\n'));
    expect(evaluateBuiltInGuards({ diff, task: 't' })).toMatchObject([
      { gateId: 'snodo_mutation_guard', severity: 'blocker', error: false },
      { gateId: 'workspace_symlink_guard', severity: 'pass' },
      { gateId: 'known_secrets_guard', severity: 'pass' },
    ]);
  });
});

describe('createPredicateRegistry', () => {
  it('holds the built-ins and accepts embedder predicates', () => {
    const registry = createPredicateRegistry();
    expect(registry.names()).toEqual([...BUILT_IN_PREDICATE_NAMES]);
    registry.register('always', () => ({ passed: true, justification: 'ok' }));
    expect(registry.has('always')).toBe(true);
    expect(registry.names()).toContain('always');
    expect(() => registry.register(' ', () => ({ passed: true, justification: '' }))).toThrow();
    // Registries are independent: no global state between runs.
    expect(createPredicateRegistry().has('always')).toBe(false);
  });
});
