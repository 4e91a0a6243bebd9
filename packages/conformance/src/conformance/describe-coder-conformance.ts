import { afterAll, beforeAll, describe, it } from 'vitest';
import { obligations } from '../obligations/index.js';
import type { CoderAdapterFactory, CoderConformanceFixture } from './coder-conformance-fixture.js';
import { planCoderConformance } from './plan-coder-conformance.js';
import { useRepositoryTemplate } from './repository-template.js';
import { createAdapterFor } from './resolved-fixture.js';

function labelFor(createAdapter: CoderAdapterFactory, fixture: CoderConformanceFixture): string {
  if (fixture.label !== undefined) return fixture.label;
  try {
    return createAdapterFor(createAdapter, fixture).displayName || 'coder';
  } catch {
    return 'coder';
  }
}

/**
 * Registers the Tier 1 conformance suite in the calling vitest file: one `describe` with one test per
 * obligation, named after it. Obligations that do not apply to the adapter, or that the fixture opts out
 * of with a written reason, are skipped with the reason in the title; an opt-out without a reason is a
 * failing test. Call it at the top level of a test file:
 *
 * ```ts
 * describeCoderConformance((options) => createMyCoder(options), { fakeCli: { versionOutput: '1.4.2' } });
 * ```
 */
export function describeCoderConformance(
  createAdapter: CoderAdapterFactory,
  fixture: CoderConformanceFixture = {},
): void {
  const plan = planCoderConformance(createAdapter, fixture);
  describe(`${labelFor(createAdapter, fixture)} — snodo coder conformance (Tier 1)`, () => {
    let releaseTemplate: (() => void) | undefined;
    beforeAll(() => {
      releaseTemplate = useRepositoryTemplate();
    });
    afterAll(() => releaseTemplate?.());
    for (const item of plan) {
      if (item.action === 'skip') {
        it.skip(item.title, () => {});
      } else if (item.action === 'fail' || item.name === 'fixture') {
        const error = item.error;
        it(item.title, () => {
          throw error;
        });
      } else {
        const obligation = obligations[item.name];
        it(item.title, () => obligation(createAdapter, fixture), item.timeoutMs);
      }
    }
  });
}
