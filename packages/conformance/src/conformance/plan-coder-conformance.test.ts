import { describe, expect, it } from 'vitest';
import { ConformanceFixtureError } from '../errors/conformance-fixture-error.js';
import { ConformanceObligationError } from '../errors/conformance-obligation-error.js';
import { createExampleCoder } from '../example/example-coder.js';
import { withId } from '../testing/broken-invocation-coders.js';
import { createEngineExampleCoder } from '../testing/engine-example-coder.js';
import type { CoderConformanceFixture } from './coder-conformance-fixture.js';
import { OBLIGATION_NAMES } from './obligation-catalog.js';
import { planCoderConformance } from './plan-coder-conformance.js';
import { runCoderConformance } from './run-coder-conformance.js';

const example = () => createExampleCoder();

describe('planCoderConformance', () => {
  it('runs every in-place obligation for an in-place coder, titled by name, and skips the engine-managed one', () => {
    const plan = planCoderConformance(example, {});
    expect(plan.map((item) => item.name)).toEqual([...OBLIGATION_NAMES]);
    expect(plan.filter((item) => item.action === 'run').map((item) => item.title)).toEqual(
      OBLIGATION_NAMES.filter((name) => name !== 'engine-managed-proposals-only'),
    );
    expect(plan.at(-1)?.title).toBe(
      'engine-managed-proposals-only — skipped: in-place coders change the worktree and commit themselves; they return no proposals',
    );
  });

  it('skips sandbox-honoured for an adapter that does not declare supportsSandbox, saying so', () => {
    const unsandboxed = () => ({
      ...withId(createExampleCoder(), 'unsandboxed'),
      supportsSandbox: undefined,
    });
    expect(
      planCoderConformance(unsandboxed, {}).find((item) => item.name === 'sandbox-honoured'),
    ).toMatchObject({
      action: 'skip',
      title: expect.stringContaining(
        'sandbox-honoured — skipped: the adapter does not declare supportsSandbox',
      ),
    });
    expect(planCoderConformance(example, {}).find((item) => item.name === 'sandbox-honoured')?.action).toBe(
      'run',
    );
  });

  it('puts an opt-out’s written reason in the skipped title', () => {
    const plan = planCoderConformance(example, {
      optOut: {
        'stdin-never-blocks': '  the CLI reads the prompt from stdin; the adapter closes it itself ',
      },
    });
    expect(plan.find((item) => item.name === 'stdin-never-blocks')).toMatchObject({
      action: 'skip',
      title:
        'stdin-never-blocks — opted out: the CLI reads the prompt from stdin; the adapter closes it itself',
    });
  });

  it.each([
    ['an empty reason', ''],
    ['a blank reason', '   '],
    ['no reason at all', true],
  ])('turns an opt-out with %s into a failing test', (_label, reason) => {
    const fixture = { optOut: { 'hang-killed-with-group': reason } } as unknown as CoderConformanceFixture;
    const item = planCoderConformance(example, fixture).find(
      (entry) => entry.name === 'hang-killed-with-group',
    );
    expect(item?.action).toBe('fail');
    expect(item?.title).toBe('hang-killed-with-group — opt-out without a written reason');
    expect(ConformanceFixtureError.isInstance(item?.error)).toBe(true);
    expect(item?.error?.field).toBe('optOut.hang-killed-with-group');
  });

  it('fails an opt-out that names no obligation, listing the real names', () => {
    const fixture = { optOut: { 'hang-kills-group': 'typo' } } as unknown as CoderConformanceFixture;
    const [first] = planCoderConformance(example, fixture);
    expect(first).toMatchObject({
      name: 'fixture',
      action: 'fail',
      title: 'optOut names no obligation: "hang-kills-group"',
    });
    expect(first?.error?.message).toContain('hang-killed-with-group');
  });

  it('skips what does not apply to the adapter, with the reason', () => {
    const noKey = () => Object.assign(createExampleCoder(), { credentials: { envVars: [] } });
    const optionalKey = () =>
      Object.assign(createExampleCoder(), { credentials: { envVars: ['X_KEY'], optional: true } });
    const noPrefix = () => Object.assign(createExampleCoder(), { modelPrefix: undefined });
    const reason = (factory: () => ReturnType<typeof createExampleCoder>, name: string) =>
      planCoderConformance(factory, {}).find((item) => item.name === name)?.reason;
    expect(reason(noKey, 'missing-credentials')).toBe(
      'the adapter needs no key (credentials.envVars is empty)',
    );
    expect(reason(optionalKey, 'missing-credentials')).toBe(
      'the key is optional (credentials.optional: the CLI has its own login)',
    );
    expect(reason(noPrefix, 'model-namespace-stripped')).toBe('the adapter declares no modelPrefix');
  });

  it('plans engine-managed coders by the fixture’s kind', () => {
    const plan = planCoderConformance(() => createEngineExampleCoder(), { kind: 'engine-managed' });
    expect(plan.filter((item) => item.action === 'run').map((item) => item.name)).toEqual([
      'spec-shape',
      'missing-credentials',
      'abort-kills-promptly',
      'usage-shape-valid',
      'engine-managed-proposals-only',
    ]);
  });

  it('keeps suite order when given only some obligations', () => {
    const plan = planCoderConformance(example, {}, { only: ['output-capped', 'spec-shape'] });
    expect(plan.map((item) => item.name)).toEqual(['spec-shape', 'output-capped']);
  });
});

describe('runCoderConformance', () => {
  it('reports a fixture problem as a failure without running anything', async () => {
    const fixture = { optOut: { 'spec-shape': '' } } as unknown as CoderConformanceFixture;
    const [result] = await runCoderConformance(example, fixture, { only: ['spec-shape'] });
    expect(result).toMatchObject({ obligation: 'spec-shape', status: 'failed', durationMs: 0 });
    expect(ConformanceFixtureError.isInstance(result?.error)).toBe(true);
  });

  it('names the obligation when the factory throws', async () => {
    const [result] = await runCoderConformance(
      () => {
        throw new Error('no settings');
      },
      {},
      { only: ['spec-shape'] },
    );
    expect(result?.status).toBe('failed');
    expect(ConformanceObligationError.isInstance(result?.error)).toBe(true);
    expect(String((result?.error as Error | undefined)?.message)).toBe(
      '[spec-shape] createAdapter threw Error: no settings.',
    );
  });

  it('reports a malformed adapter through spec-shape', async () => {
    const [result] = await runCoderConformance(
      () => ({ ...withId(createExampleCoder(), 'example'), specificationVersion: 'coder-v0' as 'coder-v1' }),
      {},
      { only: ['spec-shape'] },
    );
    expect(String((result?.error as Error | undefined)?.message)).toContain(
      '[spec-shape] the adapter is not a coder-v1 object (isCoderAdapterV1 is false): specificationVersion="coder-v0"',
    );
  });
});
