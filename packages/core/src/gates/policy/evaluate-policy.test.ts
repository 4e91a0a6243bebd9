import { describe, expect, it } from 'vitest';
import { verdict } from '../../testing/verdict.js';
import { type DisagreementPolicy, evaluatePolicy } from './evaluate-policy.js';

const pass = (id: string) => verdict(id, 'pass');
const warn = (id: string) => verdict(id, 'warn');

describe('evaluatePolicy', () => {
  // ADR 002's worked example from the Python original: N = 3, 2 pass + 1 warn.
  it.each<[DisagreementPolicy, string]>([
    ['unanimous', 'escalate'],
    ['majority', 'proceed_with_log'],
    ['quorum', 'escalate'], // needs 3 × 0.67 = 2.01 passes
    ['any', 'proceed_with_log'],
  ])('worked example: 2 pass + 1 warn under %s → %s', (policy, action) => {
    const decision = evaluatePolicy([pass('a'), pass('b'), warn('c')], { policy });
    expect(decision.action).toBe(action);
    expect(decision.counts).toEqual({ pass: 2, warn: 1, blocker: 0, error: 0, total: 3 });
  });

  it.each<[string, DisagreementPolicy, string[], number | undefined, string]>([
    ['all pass, unanimous', 'unanimous', ['pass', 'pass', 'pass'], undefined, 'proceed'],
    ['one warn, unanimous', 'unanimous', ['pass', 'warn'], undefined, 'escalate'],
    ['half pass is not a majority', 'majority', ['pass', 'warn'], undefined, 'escalate'],
    ['3 of 4 is a majority', 'majority', ['pass', 'pass', 'pass', 'warn'], undefined, 'proceed_with_log'],
    ['quorum 0.5 of 2 met by 1', 'quorum', ['pass', 'warn'], 0.5, 'proceed_with_log'],
    [
      'quorum 0.7 of 10 met by 7 despite float noise',
      'quorum',
      [...Array(7).fill('pass'), ...Array(3).fill('warn')],
      0.7,
      'proceed_with_log',
    ],
    [
      'quorum 0.7 of 10 not met by 6',
      'quorum',
      [...Array(6).fill('pass'), ...Array(4).fill('warn')],
      0.7,
      'escalate',
    ],
    ['any with no pass', 'any', ['warn', 'warn'], undefined, 'escalate'],
    ['any with one pass', 'any', ['warn', 'pass'], undefined, 'proceed_with_log'],
  ])('%s', (_, policy, severities, quorumThreshold, action) => {
    const verdicts = severities.map((severity, index) => verdict(`v${index}`, severity as 'pass' | 'warn'));
    expect(evaluatePolicy(verdicts, { policy, ...(quorumThreshold ? { quorumThreshold } : {}) }).action).toBe(
      action,
    );
  });

  it.each<DisagreementPolicy>(['unanimous', 'majority', 'quorum', 'any'])(
    'under %s an error halts validator_error before a blocker, and a blocker halts whatever passes',
    (policy) => {
      const errored = verdict('broken', 'blocker', { error: true });
      expect(evaluatePolicy([pass('a'), verdict('b', 'blocker'), errored], { policy })).toMatchObject({
        action: 'halt',
        haltReason: 'validator_error',
      });
      expect(
        evaluatePolicy([pass('a'), pass('b'), pass('c'), verdict('d', 'blocker')], { policy }),
      ).toMatchObject({
        action: 'halt',
        haltReason: 'blocker',
      });
    },
  );

  it('halts on a constraint blocker or error, but never lets constraints vote', () => {
    const constraint = (severity: 'pass' | 'warn' | 'blocker', error = false) =>
      verdict('scope', severity, { kind: 'constraint', gateType: 'files_in_scope', error });
    expect(evaluatePolicy([pass('a'), constraint('blocker')])).toMatchObject({
      action: 'halt',
      haltReason: 'blocker',
    });
    expect(evaluatePolicy([pass('a'), constraint('blocker', true)])).toMatchObject({
      action: 'halt',
      haltReason: 'validator_error',
    });
    // One warning judge of one: passing constraints do not make a majority.
    const diluted = evaluatePolicy([warn('a'), constraint('pass'), constraint('pass')], {
      policy: 'majority',
    });
    expect(diluted.action).toBe('escalate');
    expect(diluted.counts.total).toBe(1);
    expect(diluted.constraintCounts).toEqual({ pass: 2, warn: 0, blocker: 0, error: 0, total: 2 });
    // A constraint warn is logged, not a withheld approval.
    expect(evaluatePolicy([pass('a'), constraint('warn')]).action).toBe('proceed_with_log');
  });

  it('proceeds with a note when no gate ran (a phase without gates)', () => {
    const decision = evaluatePolicy([], { policy: 'any' });
    expect(decision).toMatchObject({ action: 'proceed', counts: { total: 0 } });
    expect(decision.justification).toContain('No gate ran');
  });

  it('explains the tally', () => {
    const decision = evaluatePolicy([pass('a'), warn('b')], { policy: 'unanimous' });
    expect(decision.justification).toContain('1 of 2 passed');
    expect(decision.justification).toContain('b');
  });

  it('rejects an unknown policy or a threshold outside (0, 1]', () => {
    expect(() => evaluatePolicy([], { policy: 'most' as DisagreementPolicy })).toThrow(/disagreement_policy/);
    expect(() => evaluatePolicy([], { policy: 'quorum', quorumThreshold: 0 })).toThrow(/quorum_threshold/);
  });
});
