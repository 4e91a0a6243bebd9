import { describe, expect, it } from 'vitest';
import { verdict } from '../../testing/verdict.js';
import type { GateVerdict } from '../gate-verdict.js';
import { applySeverityCap } from './apply-severity-cap.js';
import { assessRecoverability, isRecoverable } from './assess-recoverability.js';
import { evaluatePolicy } from './evaluate-policy.js';

const failingTests = verdict('tests', 'blocker', {
  kind: 'command',
  gateType: 'quality',
  evidence: { outcome: 'exited' },
});
const hangingTests = verdict('tests', 'blocker', {
  kind: 'command',
  gateType: 'quality',
  evidence: { outcome: 'timed-out' },
});
const missingRunner = verdict('tests', 'blocker', {
  kind: 'command',
  gateType: 'quality',
  evidence: { outcome: 'spawn-failed' },
});
const shadowBlocker = applySeverityCap(verdict('arch', 'blocker'), 'warn');
const judgeError = verdict('sec', 'blocker', { error: true });
const cappedJudgeError = applySeverityCap(judgeError, 'warn');
const constraintBlocker = verdict('scope', 'blocker', { kind: 'constraint', gateType: 'files_in_scope' });

describe('isRecoverable', () => {
  it.each<[string, GateVerdict[], boolean, boolean]>([
    ['an escalation from a warn', [verdict('a', 'pass'), verdict('b', 'warn')], false, true],
    ['a warn-capped judge blocker', [verdict('a', 'pass'), shadowBlocker], false, true],
    ['failing tests with fix_failing_tests', [verdict('a', 'pass'), failingTests], true, true],
    ['hanging tests with fix_failing_tests', [hangingTests], true, true],
    ['failing tests without fix_failing_tests', [verdict('a', 'pass'), failingTests], false, false],
    ['a test command that cannot start', [missingRunner], true, false],
    ['an uncapped judge blocker', [verdict('a', 'blocker')], true, false],
    ['a judge error', [judgeError], true, false],
    ['a judge error capped to warn', [verdict('a', 'pass'), cappedJudgeError], true, false],
    ['a constraint blocker', [verdict('a', 'pass'), constraintBlocker], true, false],
    ['failing tests plus a constraint blocker', [failingTests, constraintBlocker], true, false],
    ['a phase that proceeds', [verdict('a', 'pass')], true, false],
  ])('%s (fixFailingTests %s) → %s', (_, verdicts, fixFailingTests, expected) => {
    const decision = evaluatePolicy(verdicts, { policy: 'unanimous' });
    expect(isRecoverable(verdicts, decision, { fixFailingTests })).toBe(expected);
  });

  it('says why', () => {
    const verdicts = [failingTests];
    const decision = evaluatePolicy(verdicts);
    expect(assessRecoverability(verdicts, decision).reason).toContain('fix_failing_tests is off');
    expect(assessRecoverability(verdicts, decision, { fixFailingTests: true }).reason).toContain(
      'tests (failing command)',
    );
  });
});
