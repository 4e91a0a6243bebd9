import { describe, expect, it } from 'vitest';
import { compareCodePoints, formatCount } from './format.js';

describe('formatCount', () => {
  it('groups thousands with commas, as en-US does', () => {
    for (const count of [0, 7, 999, 1_000, 12_345, 999_999, 1_234_567, 1_000_000_000, 1234.6]) {
      expect(formatCount(count)).toBe(Math.round(count).toLocaleString('en-US'));
    }
  });
});

describe('compareCodePoints', () => {
  it('orders ISO timestamps by time', () => {
    const times = ['2026-01-02T00:00:00.000Z', '2025-12-31T23:59:59.999Z', '2026-01-01T09:30:00.000Z'];
    expect([...times].sort(compareCodePoints)).toEqual([
      '2025-12-31T23:59:59.999Z',
      '2026-01-01T09:30:00.000Z',
      '2026-01-02T00:00:00.000Z',
    ]);
    expect(compareCodePoints('a', 'a')).toBe(0);
  });
});
