import type { z } from 'zod';
import { type DocumentPath, formatDocumentPath, type PathIssue } from './source-issue.js';

/**
 * Plain-language messages for zod's issue codes, passed per parse (`safeParse(value, { error })`).
 * Messages written on a schema itself (the read-only tool list, constraint ids) still win, because zod
 * prefers schema-level messages over per-parse ones.
 */
export const friendlyErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'missing required key';
      return `expected ${expectedNoun(issue.expected)}, got ${describeValue(issue.input)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => `\`${String(value)}\``).join(', ')} (got ${describeValue(issue.input)})`;
    case 'too_small':
      return tooSmall(issue.origin, Number(issue.minimum), issue.inclusive !== false);
    case 'too_big':
      return tooBig(issue.origin, Number(issue.maximum), issue.inclusive !== false);
    case 'invalid_union':
      return `got ${describeValue(issue.input)}, which matches none of the accepted forms`;
    default:
      return undefined;
  }
};

function expectedNoun(expected: string): string {
  switch (expected) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'int':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list';
    case 'object':
    case 'record':
      return 'a mapping (`key: value` lines)';
    default:
      return expected;
  }
}

function tooSmall(origin: string, minimum: number, inclusive: boolean): string {
  if (origin === 'array') return `needs at least ${minimum} ${minimum === 1 ? 'entry' : 'entries'}`;
  if (origin === 'string') return minimum <= 1 ? 'must not be empty' : `needs at least ${minimum} characters`;
  return inclusive ? `must be at least ${minimum}` : `must be greater than ${minimum}`;
}

function tooBig(origin: string, maximum: number, inclusive: boolean): string {
  if (origin === 'array') return `allows at most ${maximum} ${maximum === 1 ? 'entry' : 'entries'}`;
  if (origin === 'string') return `allows at most ${maximum} characters`;
  return inclusive ? `must be at most ${maximum}` : `must be less than ${maximum}`;
}

/** A short description of a YAML value for messages: `"text"`, `12`, `a list`, `nothing`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
    return `"${shown}"`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'a list';
  return 'a mapping';
}

/** The plain value at `path`, or `undefined` when a step is missing. */
export function valueAtPath(root: unknown, path: DocumentPath): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/**
 * Turns zod issues into path-located issues. A missing required key becomes "missing required key
 * `name`" on the mapping that lacks it, because the key itself has no position in the file.
 */
export function zodIssuesToPathIssues(issues: readonly z.core.$ZodIssue[], root: unknown): PathIssue[] {
  return issues.map((issue) => {
    const path = issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
    const last = path[path.length - 1];
    const missing =
      issue.code === 'invalid_type' &&
      path.length > 0 &&
      typeof last === 'string' &&
      valueAtPath(root, path) === undefined;
    if (missing) {
      const parent = path.slice(0, -1);
      const where = parent.length > 0 ? `\`${formatDocumentPath(parent)}\`: ` : '';
      return {
        path: parent,
        message: `${where}missing required key \`${last}\``,
        severity: 'error',
        rule: 'schema',
      };
    }
    const where = path.length > 0 ? `\`${formatDocumentPath(path)}\`: ` : '';
    return { path, message: `${where}${issue.message}`, severity: 'error', rule: 'schema' };
  });
}
