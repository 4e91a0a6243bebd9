import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findExecutable } from './find-executable.js';
import { stripModelPrefix } from './strip-model-prefix.js';

let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'snodo-find-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function file(relativePath: string, mode: number): string {
  const filePath = path.join(root, relativePath);
  mkdirSync(path.dirname(filePath), { recursive: true });
  writeFileSync(filePath, '#!/bin/sh\n');
  chmodSync(filePath, mode);
  return filePath;
}

describe('findExecutable', () => {
  it('returns the first executable on PATH, skipping non-executable files and directories', () => {
    file('one/tool', 0o644);
    mkdirSync(path.join(root, 'two', 'tool'), { recursive: true });
    const expected = file('three/tool', 0o755);
    file('four/tool', 0o755);
    const pathValue = ['one', 'two', 'three', 'four']
      .map((entry) => path.join(root, entry))
      .join(path.delimiter);
    expect(findExecutable('tool', pathValue)).toBe(expected);
  });

  it('checks a name with a slash as a path and skips relative PATH entries', () => {
    const tool = file('bin/tool', 0o755);
    expect(findExecutable(tool, undefined)).toBe(tool);
    expect(findExecutable(path.join(root, 'bin', 'missing'), undefined)).toBeUndefined();
    expect(findExecutable('tool', `bin${path.delimiter}`)).toBeUndefined();
    expect(findExecutable('tool', undefined)).toBeUndefined();
    expect(findExecutable('', path.join(root, 'bin'))).toBeUndefined();
  });
});

describe('stripModelPrefix', () => {
  it('removes the namespace and treats empty as no model', () => {
    expect(stripModelPrefix('agy/gemini-2.5-pro', 'agy/')).toBe('gemini-2.5-pro');
    expect(stripModelPrefix('gemini-2.5-pro', 'agy/')).toBe('gemini-2.5-pro');
    expect(stripModelPrefix('other/model', 'agy/')).toBe('other/model');
    expect(stripModelPrefix('agy/', 'agy/')).toBeUndefined();
    expect(stripModelPrefix(undefined, 'agy/')).toBeUndefined();
    expect(stripModelPrefix(' model ', undefined)).toBe('model');
  });
});
