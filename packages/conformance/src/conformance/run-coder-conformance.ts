import { performance } from 'node:perf_hooks';
import { obligations } from '../obligations/index.js';
import type { CoderAdapterFactory, CoderConformanceFixture } from './coder-conformance-fixture.js';
import type { ObligationName } from './obligation-catalog.js';
import { type ConformancePlanOptions, planCoderConformance } from './plan-coder-conformance.js';
import { useRepositoryTemplate } from './repository-template.js';

/** The outcome of one obligation in `runCoderConformance`. */
export interface ConformanceResult {
  /** The obligation, or `fixture` for an opt-out that names no obligation. */
  readonly obligation: ObligationName | 'fixture';
  /** Whether the adapter met it. */
  readonly status: 'passed' | 'failed' | 'skipped';
  /** Why it was skipped. */
  readonly reason?: string;
  /**
   * Why it failed: a `ConformanceObligationError` (its message starts with `[<obligation>]`), or a
   * `ConformanceFixtureError` when the fixture is at fault.
   */
  readonly error?: unknown;
  /** How long the obligation took, in milliseconds. */
  readonly durationMs: number;
}

/**
 * Runs the Tier 1 obligations one after the other, without a test framework, and returns one result per
 * obligation (and per fixture problem). For scripts, `snodo doctor`-style tools and the kit's own tests;
 * adapter authors normally call `describeCoderConformance` from vitest instead.
 */
export async function runCoderConformance(
  createAdapter: CoderAdapterFactory,
  fixture: CoderConformanceFixture = {},
  options: ConformancePlanOptions = {},
): Promise<ConformanceResult[]> {
  const results: ConformanceResult[] = [];
  const releaseTemplate = useRepositoryTemplate();
  try {
    await runPlanned(createAdapter, fixture, options, results);
  } finally {
    releaseTemplate();
  }
  return results;
}

async function runPlanned(
  createAdapter: CoderAdapterFactory,
  fixture: CoderConformanceFixture,
  options: ConformancePlanOptions,
  results: ConformanceResult[],
): Promise<void> {
  for (const item of planCoderConformance(createAdapter, fixture, options)) {
    if (item.action === 'skip') {
      results.push({ obligation: item.name, status: 'skipped', reason: item.reason, durationMs: 0 });
      continue;
    }
    if (item.action === 'fail' || item.name === 'fixture') {
      results.push({ obligation: item.name, status: 'failed', error: item.error, durationMs: 0 });
      continue;
    }
    const startedAt = performance.now();
    try {
      await obligations[item.name](createAdapter, fixture);
      results.push({ obligation: item.name, status: 'passed', durationMs: performance.now() - startedAt });
    } catch (error) {
      results.push({
        obligation: item.name,
        status: 'failed',
        error,
        durationMs: performance.now() - startedAt,
      });
    }
  }
}
