import { describe, expect, it } from 'vitest';
import { parseDuration, parsePositiveInteger } from './option-parsers.js';

describe('option parsers', () => {
  it('reads --older-than durations and refuses the rest with an example', () => {
    expect(parseDuration('7d')).toBe(7 * 86_400_000);
    expect(parseDuration('12h')).toBe(12 * 3_600_000);
    expect(parseDuration(' 30m ')).toBe(30 * 60_000);
    expect(() => parseDuration('7 days')).toThrow(/like 7d or 12h/);
    expect(() => parseDuration('-1d')).toThrow(/like 7d/);
  });

  it('reads --timeout as whole seconds above zero', () => {
    expect(parsePositiveInteger('600')).toBe(600);
    expect(() => parsePositiveInteger('0')).toThrow(/above zero/);
    expect(() => parsePositiveInteger('1.5')).toThrow(/whole number/);
    expect(() => parsePositiveInteger('ten')).toThrow(/got "ten"/);
  });
});
