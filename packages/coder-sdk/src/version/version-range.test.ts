import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  describeVersionRange,
  findVersionInText,
  isVersionInRange,
} from './version-range.js';

describe('compareVersions', () => {
  it.each([
    ['1.2.3', '1.2.3', 0],
    ['1.2', '1.2.0', 0],
    ['v2.0.0', '2.0.0', 0],
    ['1.10.0', '1.9.9', 1],
    ['2.0.0', '10.0.0', -1],
    ['2.0.0-beta.1', '2.0.0', -1],
    ['2.0.0-beta.2', '2.0.0-beta.10', -1],
    ['2.0.0-alpha', '2.0.0-beta', -1],
    ['2.0.0-1', '2.0.0-alpha', -1],
    ['2.0.0+build.5', '2.0.0', 0],
  ])('compares %s with %s as %i', (left, right, expected) => {
    expect(compareVersions(left, right)).toBe(expected);
    expect(compareVersions(right, left)).toBe(-expected || 0);
  });
});

describe('isVersionInRange', () => {
  it('treats min as inclusive and below as exclusive', () => {
    const range = { min: '2.0.0', below: '3.0.0' };
    expect(isVersionInRange('2.0.0', range)).toBe(true);
    expect(isVersionInRange('2.9.99', range)).toBe(true);
    expect(isVersionInRange('3.0.0', range)).toBe(false);
    expect(isVersionInRange('3.0.0-rc.1', range)).toBe(false);
    expect(isVersionInRange('1.99.0', range)).toBe(false);
    expect(isVersionInRange('0.0.1', {})).toBe(true);
  });

  it('describes ranges in words', () => {
    expect(describeVersionRange({ min: '2.0.0', below: '3.0.0' })).toBe('>= 2.0.0 and < 3.0.0');
    expect(describeVersionRange({ below: '1.0.0' })).toBe('< 1.0.0');
    expect(describeVersionRange({})).toBe('any version');
  });
});

describe('findVersionInText', () => {
  it('finds the version in typical --version output', () => {
    expect(findVersionInText('2.1.3 (Claude Code)\n')).toBe('2.1.3');
    expect(findVersionInText('codex-cli 0.46.0')).toBe('0.46.0');
    expect(findVersionInText('opencode v1.0.0-beta.3')).toBe('1.0.0-beta.3');
    expect(findVersionInText('no version here')).toBeUndefined();
  });
});
