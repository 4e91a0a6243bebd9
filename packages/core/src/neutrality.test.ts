import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Core never names a coder or a CLI (SPEC §1): which coders exist, how models route to them and which one
 * is the default all come from the registrations the CLI passes in. A name creeping into core's source is
 * how "pluggable" quietly stops being true.
 */
const forbidden = /\b(litellm|opencode|agy|antigravity|claude|codex|gemini|openai|anthropic)\b/i;
const sourceRoot = import.meta.dirname;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('core neutrality', () => {
  const files = sourceFiles(sourceRoot);

  it('scans core source files', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('names no coder id or CLI outside tests', () => {
    const offenders = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, index) => ({ line, index }))
        .filter(({ line }) => forbidden.test(line))
        .map(({ line, index }) => `${relative(sourceRoot, file)}:${index + 1}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });
});
