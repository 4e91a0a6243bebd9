import type { GateFinding } from '../gate-verdict.js';
import { parseAddedLines } from './parse-added-lines.js';
import type { Predicate } from './predicate.js';

/**
 * The patterns `no_secrets_in_diff` uses unless `params.patterns` replaces them, name → regular
 * expression source (compiled case-sensitive unless the source starts with `(?i)`).
 */
export const DEFAULT_SECRET_PATTERNS: Readonly<Record<string, string>> = {
  aws_access_key_id: '\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b',
  generic_secret_assignment:
    '(?i)[a-z0-9_.-]*(?:api[_-]?key|secret|token)[a-z0-9_.-]*["\']?\\s*[:=]\\s*["\'][^"\'\\s]{20,}["\']',
  password_assignment: '(?i)[a-z0-9_.-]*passw(?:or)?d[a-z0-9_.-]*["\']?\\s*[:=]\\s*["\'][^"\']{4,}["\']',
  private_key_block: '-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----',
  sk_prefixed_api_key: '\\bsk-(?:ant-)?(?:[a-z]+-)?[A-Za-z0-9_-]{20,}',
  github_token: '\\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})',
  slack_token: '\\bxox[abposr]-[A-Za-z0-9-]{10,}',
};

interface CompiledPattern {
  readonly name: string;
  readonly expression: RegExp;
}

/** Python-style patterns may start with `(?i)`, which JavaScript regular expressions lack; it becomes the `i` flag. */
function compile(name: string, source: string): CompiledPattern {
  const caseInsensitive = source.startsWith('(?i)');
  const body = caseInsensitive ? source.slice(4) : source;
  try {
    return { name, expression: new RegExp(body, caseInsensitive ? 'gi' : 'g') };
  } catch (cause) {
    throw new TypeError(`secret pattern ${name} is not a valid regular expression: ${String(cause)}`);
  }
}

function patternsFrom(params: Readonly<Record<string, unknown>>): CompiledPattern[] {
  const value = params.patterns;
  if (value === undefined || value === null) {
    return Object.entries(DEFAULT_SECRET_PATTERNS).map(([name, source]) => compile(name, source));
  }
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    return value.map((source, index) => compile(`pattern_${index + 1}`, source));
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).map(([name, source]) => {
      if (typeof source !== 'string') throw new TypeError(`secret pattern ${name} must be a string`);
      return compile(name, source);
    });
  }
  throw new TypeError('parameter patterns must be a map of name → regular expression or a list of them');
}

/**
 * Masks a matched secret for evidence: the first four characters stay (enough to recognise `AKIA`,
 * `ghp_`, `api_`), the rest become `*`, and the length is stated. Short matches are fully masked.
 */
export function maskSecretMatch(match: string): string {
  const visible = match.length >= 12 ? match.slice(0, 4) : '';
  return `${visible}${'*'.repeat(Math.min(match.length - visible.length, 12))} (${match.length} chars)`;
}

/**
 * `no_secrets_in_diff`: scans only the lines the diff ADDS (never removed lines, never `+++` headers) for
 * credentials. Evidence names the file, line and pattern with a masked match, never the secret itself, so
 * the audit log and the coder's feedback do not spread it. `params.patterns` replaces the defaults.
 */
export const noSecretsInDiff: Predicate = (context, params) => {
  const patterns = patternsFrom(params);
  const found: { path: string; line: number; pattern: string; masked: string }[] = [];
  const addedLines = parseAddedLines(context.diff.patch);
  for (const added of addedLines) {
    for (const { name, expression } of patterns) {
      expression.lastIndex = 0;
      for (const match of added.text.matchAll(expression)) {
        if (match[0] === '') continue;
        found.push({ path: added.path, line: added.line, pattern: name, masked: maskSecretMatch(match[0]) });
      }
    }
  }
  if (found.length === 0) {
    return {
      passed: true,
      justification: `No secret found in the ${addedLines.length} added line(s).`,
      evidence: { patterns: patterns.map(({ name }) => name), addedLines: addedLines.length },
    };
  }
  const findings: GateFinding[] = found.map(({ path, line, pattern, masked }) => ({
    message: `possible secret (${pattern}) added: ${masked}`,
    path,
    line,
  }));
  const places = found.map(({ path, line, pattern }) => `${path}:${line} (${pattern})`).join(', ');
  return {
    passed: false,
    justification: `Possible secrets in added lines: ${places}. Remove them and load credentials from the environment.`,
    findings,
    evidence: { findings: found },
  };
};
