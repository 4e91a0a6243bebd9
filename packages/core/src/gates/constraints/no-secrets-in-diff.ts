import type { GateFinding } from '../gate-verdict.js';
import { parseAddedLines } from './parse-added-lines.js';
import type { Predicate } from './predicate.js';

/**
 * The patterns `no_secrets_in_diff` uses unless `params.patterns` replaces them, name → regular
 * expression source (compiled case-sensitive unless the source starts with `(?i)`).
 *
 * A coder writes the lines these run on, so each must cost time linear in a line's length however the line
 * is built, and be quick on a long one. Each finds what its plain form would (the tests compare them):
 * - the two assignments name a key by a word it contains (`MY_API_KEY`, `db_password`). Written plainly,
 *   `[a-z0-9_.-]*secret[a-z0-9_.-]*` starts a scan to the word's end at every position of a long word (one
 *   64 KB line of `a` took 14 s); here a match starts only where a word starts (the lookbehind), the
 *   keyword is looked for once per word (the lazy lookahead), and the word is then taken whole;
 * - the key block's header is one run of `[A-Z0-9 ]` taken at once (the lookahead and back-reference make
 *   it atomic), then checked from behind; `(?:[A-Z0-9]+ )*PRIVATE KEY` backtracked word by word through a
 *   long header;
 * - `sk-…` takes its whole run: `proj-`, `ant-api03-` and the like are part of it.
 */
export const DEFAULT_SECRET_PATTERNS: Readonly<Record<string, string>> = {
  aws_access_key_id: '\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b',
  generic_secret_assignment:
    '(?i)(?<![a-z0-9_.-])(?=[a-z0-9_.-]*?(?:api[_-]?key|secret|token))[a-z0-9_.-]+["\']?\\s*[:=]\\s*["\'][^"\'\\s]{20,}["\']',
  password_assignment:
    '(?i)(?<![a-z0-9_.-])(?=[a-z0-9_.-]*?passw(?:or)?d)[a-z0-9_.-]+["\']?\\s*[:=]\\s*["\'][^"\']{4,}["\']',
  private_key_block: '-----BEGIN (?! )(?![A-Z0-9 ]*  )(?=([A-Z0-9 ]*))\\1(?<= PRIVATE KEY(?: BLOCK)?)-----',
  sk_prefixed_api_key: '\\bsk-[A-Za-z0-9_-]{20,}',
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
 * the audit log and the coder's feedback do not spread it. `params.patterns` replaces the defaults; those
 * run as written, so a pattern that backtracks makes a long line as slow as the defaults used to.
 */
export const noSecretsInDiff: Predicate = (context, params) => {
  const patterns = patternsFrom(params);
  const found: { path: string; line: number; pattern: string; masked: string }[] = [];
  const addedLines = parseAddedLines(context.diff.patch);
  for (const added of addedLines) {
    for (const { name, expression } of patterns) {
      // `exec` on the one compiled expression, not `matchAll`, which copies it for every line.
      expression.lastIndex = 0;
      for (let match = expression.exec(added.text); match !== null; match = expression.exec(added.text)) {
        if (match[0] === '') {
          expression.lastIndex += 1;
          continue;
        }
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
