import { describe, expect, it } from 'vitest';
import { verdict } from '../../testing/verdict.js';
import { applySeverityCap } from './apply-severity-cap.js';

describe('applySeverityCap', () => {
  it.each([
    ['blocker', 'warn', 'warn', true],
    ['blocker', 'pass', 'pass', true],
    ['warn', 'pass', 'pass', true],
    ['warn', 'warn', 'warn', false],
    ['pass', 'warn', 'pass', false],
    ['blocker', 'blocker', 'blocker', false],
  ] as const)('%s capped at %s → %s', (severity, cap, expected, capped) => {
    const result = applySeverityCap(verdict('v', severity), cap);
    expect(result.severity).toBe(expected);
    if (capped) {
      expect(result).toMatchObject({ capped: true, originalSeverity: severity });
    } else {
      expect(result.capped).toBeUndefined();
    }
  });

  it('keeps error: true when it lowers an error verdict', () => {
    expect(applySeverityCap(verdict('v', 'blocker', { error: true }), 'warn')).toMatchObject({
      severity: 'warn',
      error: true,
      capped: true,
    });
  });

  it('leaves a verdict alone without a cap and flags an invalid cap as an error', () => {
    const original = verdict('v', 'blocker');
    expect(applySeverityCap(original, null)).toBe(original);
    expect(applySeverityCap(verdict('v', 'pass'), 'shadow')).toMatchObject({
      error: true,
      severity: 'blocker',
    });
  });
});
