import type { CoderAdapterV1, CoderV1Kind } from '@snodo/coder-sdk';
import { ConformanceFixtureError } from '../errors/conformance-fixture-error.js';
import type { CoderAdapterFactory, CoderConformanceFixture } from './coder-conformance-fixture.js';
import {
  isObligationName,
  OBLIGATION_NAMES,
  type ObligationName,
  obligationInfo,
} from './obligation-catalog.js';
import { createAdapterFor } from './resolved-fixture.js';

/** What the suite will do about one obligation (or one problem of the fixture itself). */
export interface PlannedObligation {
  /** The obligation, or `fixture` for an opt-out naming no obligation. */
  readonly name: ObligationName | 'fixture';
  /** The test title: the name, plus the reason when it is skipped or the fixture is at fault. */
  readonly title: string;
  /** `run` it; `skip` it (`reason` says why); `fail` it with `error` (a fixture problem). */
  readonly action: 'run' | 'skip' | 'fail';
  /** Why it is skipped: not applicable, or the opt-out's written reason. */
  readonly reason?: string;
  /** The fixture problem, for `fail`. */
  readonly error?: ConformanceFixtureError;
  /** How long the test may take, in milliseconds. */
  readonly timeoutMs: number;
}

/** Options of `planCoderConformance` and `runCoderConformance`. */
export interface ConformancePlanOptions {
  /** Plan only these obligations (in suite order). Default: all. */
  readonly only?: readonly ObligationName[];
}

const kindReasons: Record<CoderV1Kind, string> = {
  'engine-managed':
    "engine-managed coders run no CLI and never touch the worktree: snodo's core writes and commits their proposals",
  'in-place': 'in-place coders change the worktree and commit themselves; they return no proposals',
};

/** Why an obligation that fits the kind still does not apply to this adapter, if it does not. */
function conditionReason(name: ObligationName, adapter: CoderAdapterV1 | undefined): string | undefined {
  if (adapter === undefined) return undefined;
  if (name === 'missing-credentials') {
    if (!Array.isArray(adapter.credentials?.envVars) || adapter.credentials.envVars.length === 0) {
      return 'the adapter needs no key (credentials.envVars is empty)';
    }
    if (adapter.credentials.optional === true) {
      return 'the key is optional (credentials.optional: the CLI has its own login)';
    }
  }
  if (name === 'sandbox-honoured' && adapter.supportsSandbox !== true) {
    return 'the adapter does not declare supportsSandbox (core runs it unsandboxed, and refuses it under execution.sandbox: required)';
  }
  if (
    name === 'model-namespace-stripped' &&
    (adapter.modelPrefix === undefined || adapter.modelPrefix === '')
  ) {
    return 'the adapter declares no modelPrefix';
  }
  return undefined;
}

function tryCreate(createAdapter: CoderAdapterFactory, fixture: CoderConformanceFixture) {
  try {
    return createAdapterFor(createAdapter, fixture);
  } catch {
    // spec-shape and every other obligation report the throw with their own names.
    return undefined;
  }
}

/**
 * Decides, for every obligation, whether it runs, is skipped (not applicable to the adapter's kind or
 * shape, or opted out with a written reason) or fails because the fixture is at fault (an opt-out without
 * a reason). Shared by `describeCoderConformance` and `runCoderConformance`, so both skip the same things
 * for the same reasons.
 */
export function planCoderConformance(
  createAdapter: CoderAdapterFactory,
  fixture: CoderConformanceFixture,
  options: ConformancePlanOptions = {},
): PlannedObligation[] {
  const adapter = tryCreate(createAdapter, fixture);
  const declared = adapter?.kind;
  const kind: CoderV1Kind =
    fixture.kind ?? (declared === 'engine-managed' || declared === 'in-place' ? declared : 'in-place');
  const timeoutMs = (fixture.timeouts?.runTimeoutMs ?? 30_000) * 2 + (fixture.timeouts?.marginMs ?? 2000) * 3;
  const optOut: Readonly<Record<string, unknown>> = fixture.optOut ?? {};
  const plan: PlannedObligation[] = [];

  for (const key of Object.keys(optOut)) {
    if (isObligationName(key)) continue;
    plan.push({
      name: 'fixture',
      title: `optOut names no obligation: "${key}"`,
      action: 'fail',
      error: new ConformanceFixtureError({
        field: `optOut.${key}`,
        problem: `names no obligation. The obligations are: ${OBLIGATION_NAMES.join(', ')}.`,
      }),
      timeoutMs,
    });
  }

  const wanted =
    options.only === undefined
      ? OBLIGATION_NAMES
      : OBLIGATION_NAMES.filter((name) => options.only?.includes(name));
  for (const name of wanted) {
    const notApplicable = obligationInfo[name].appliesTo.includes(kind)
      ? conditionReason(name, adapter)
      : kindReasons[kind];
    if (notApplicable !== undefined) {
      plan.push({
        name,
        title: `${name} — skipped: ${notApplicable}`,
        action: 'skip',
        reason: notApplicable,
        timeoutMs,
      });
      continue;
    }
    if (!Object.hasOwn(optOut, name)) {
      plan.push({ name, title: name, action: 'run', timeoutMs });
      continue;
    }
    const reason = optOut[name];
    if (typeof reason === 'string' && reason.trim() !== '') {
      plan.push({
        name,
        title: `${name} — opted out: ${reason.trim()}`,
        action: 'skip',
        reason: reason.trim(),
        timeoutMs,
      });
      continue;
    }
    plan.push({
      name,
      title: `${name} — opt-out without a written reason`,
      action: 'fail',
      error: new ConformanceFixtureError({
        field: `optOut.${name}`,
        problem:
          'opts out without a written reason. Say why the adapter does not meet the obligation ' +
          `(e.g. optOut: { '${name}': 'the CLI reads the prompt from stdin' }), or remove the opt-out.`,
      }),
      timeoutMs,
    });
  }
  return plan;
}
