import { describe, expect, it } from 'vitest';
import { OBLIGATION_NAMES } from '../conformance/obligation-catalog.js';
import { runCoderConformance } from '../conformance/run-coder-conformance.js';
import { createEngineExampleCoder } from './engine-example-coder.js';
import { expectConformance } from './expect-conformance.js';

describe('engine-managed coders', () => {
  it('a correct one passes what applies to it; the CLI, commit and process obligations are skipped with the reason', async () => {
    const results = await runCoderConformance(() => createEngineExampleCoder(), { kind: 'engine-managed' });
    const byStatus = (status: string) =>
      results.filter((result) => result.status === status).map((result) => result.obligation);
    expect(
      byStatus('failed'),
      results.map((result) => String((result.error as Error)?.message)).join('\n'),
    ).toEqual([]);
    expect(byStatus('passed')).toEqual([
      'spec-shape',
      'missing-credentials',
      'abort-kills-promptly',
      'usage-shape-valid',
      'engine-managed-proposals-only',
    ]);
    expect(byStatus('skipped')).toHaveLength(OBLIGATION_NAMES.length - 5);
    expect(results.find((result) => result.obligation === 'hang-killed-with-group')?.reason).toBe(
      "engine-managed coders run no CLI and never touch the worktree: snodo's core writes and commits their proposals",
    );
  }, 30_000);

  it('engine-managed-proposals-only: a coder that writes its proposal into the worktree itself', async () => {
    await expectConformance(
      () => createEngineExampleCoder({ writesFiles: true }),
      {
        fails: {
          'engine-managed-proposals-only': 'the coder wrote to the worktree itself: added src/engine.txt',
        },
        passes: ['spec-shape', 'usage-shape-valid'],
      },
      { kind: 'engine-managed' },
    );
  }, 30_000);

  it('abort-kills-promptly: a coder that never looks at the abort signal', async () => {
    await expectConformance(
      () => createEngineExampleCoder({ ignoresAbort: true }),
      {
        fails: { 'abort-kills-promptly': 'resolved with status "changed" instead of rejecting as aborted' },
        passes: ['missing-credentials'],
      },
      { kind: 'engine-managed' },
    );
  }, 30_000);

  it('spec-shape: the fixture expects another kind than the adapter declares', async () => {
    await expectConformance(
      () => createEngineExampleCoder(),
      {
        fails: {
          'spec-shape': 'the fixture expects kind "in-place" but the adapter declares "engine-managed"',
        },
        passes: [],
      },
      { kind: 'in-place', optOut: {} },
    );
  }, 30_000);
});
