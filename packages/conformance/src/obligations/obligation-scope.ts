import type { CoderAdapterV1, CoderV1Request, CoderV1Result } from '@snodo/coder-sdk';
import type {
  CoderAdapterFactory,
  CoderConformanceFixture,
} from '../conformance/coder-conformance-fixture.js';
import { ConformanceRun, type ConformanceRunOptions } from '../conformance/conformance-run.js';
import { type ObligationName, obligationInfo } from '../conformance/obligation-catalog.js';
import { createAdapterFor, type ResolvedFixture } from '../conformance/resolved-fixture.js';
import { type Settled, settle } from '../conformance/settle.js';
import { ConformanceObligationError } from '../errors/conformance-obligation-error.js';
import type { FakeCliStep } from '../fake-cli/fake-cli-scenario.js';

/** A short description of what was thrown: its code (or name) and the start of its message. */
export function describeError(error: unknown): string {
  if (error === null || typeof error !== 'object') return String(error);
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  const label = typeof code === 'string' ? code : typeof name === 'string' ? name : 'error';
  const text = typeof message === 'string' ? message.split('\n')[0]?.slice(0, 300) : '';
  return `${label}: ${text}`;
}

/** The `code` of a thrown value, when it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Quotes an argv for a message, shortening long elements. */
export function showArgv(argv: readonly string[]): string {
  return JSON.stringify(
    argv.map((argument) => (argument.length > 80 ? `${argument.slice(0, 77)}…` : argument)),
  );
}

/**
 * What one obligation works with: its name (for failures), a fresh adapter, the fixture with defaults, and
 * helpers that set up runs and turn surprises into `ConformanceObligationError`s naming the obligation.
 */
export class ObligationScope {
  constructor(
    readonly name: ObligationName,
    readonly createAdapter: CoderAdapterFactory,
    readonly fixture: CoderConformanceFixture,
    readonly adapter: CoderAdapterV1,
    readonly resolved: ResolvedFixture,
  ) {}

  /** Fails the obligation. */
  fail(problem: string, cause?: unknown): never {
    throw new ConformanceObligationError({
      obligation: this.name,
      problem,
      fix: obligationInfo[this.name].fix,
      cause,
    });
  }

  /** Fails the obligation unless `condition` holds. */
  check(condition: unknown, problem: string | (() => string)): asserts condition {
    if (!condition) this.fail(typeof problem === 'string' ? problem : problem());
  }

  /** A fresh adapter from the factory (one per run, as core makes one per job). */
  newAdapter(): CoderAdapterV1 {
    return createAdapterFor(this.createAdapter, this.fixture);
  }

  /**
   * Calls `doRun` of a fresh adapter with the run's request (and `overrides`). The run keeps the promise,
   * so cleaning up waits for a coder that is still working before its files are removed.
   */
  doRun(run: ConformanceRun, overrides: Partial<CoderV1Request> = {}): Promise<CoderV1Result> {
    return run.track(this.newAdapter().doRun(run.request(overrides)));
  }

  /** Steps that end every normal scenario: the fixture's final output on stdout. */
  finalOutput(): FakeCliStep[] {
    return this.resolved.usageOutput === undefined ? [] : [{ stdout: `${this.resolved.usageOutput}\n` }];
  }

  /** Sets up a run, hands it to `body`, and always cleans up (processes and files). */
  async withRun<T>(
    options: Omit<ConformanceRunOptions, 'resolved' | 'obligation'>,
    body: (run: ConformanceRun) => Promise<T>,
  ): Promise<T> {
    const run = new ConformanceRun({ ...options, resolved: this.resolved, obligation: this.name });
    try {
      return await body(run);
    } finally {
      await run.dispose();
    }
  }

  /** Runs `doRun` and fails the obligation unless it resolves; `what` says what the run was. */
  async expectSuccess(promise: Promise<CoderV1Result>, what: string): Promise<CoderV1Result> {
    const outcome = await settle(promise);
    if (outcome.state === 'rejected') {
      this.fail(`${what}: doRun rejected with ${describeError(outcome.error)}.`, outcome.error);
    }
    if (outcome.state !== 'resolved') this.fail(`${what}: doRun never settled.`);
    return outcome.value;
  }

  /** Fails unless `outcome` is a rejection with `code`; returns the error. */
  expectCode(outcome: Settled<CoderV1Result>, code: string, what: string): unknown {
    if (outcome.state === 'pending') {
      this.fail(`${what}: expected ${code}, but doRun was still running after ${outcome.afterMs} ms.`);
    }
    if (outcome.state === 'resolved') {
      this.fail(`${what}: expected ${code}, but doRun resolved with status "${outcome.value.status}".`);
    }
    if (errorCode(outcome.error) !== code) {
      this.fail(`${what}: expected ${code}, got ${describeError(outcome.error)}.`, outcome.error);
    }
    return outcome.error;
  }
}

/** The signature of every entry of `obligations`: run one obligation against an adapter. */
export type CoderObligation = (
  createAdapter: CoderAdapterFactory,
  fixture: CoderConformanceFixture,
) => Promise<void>;
