/**
 * The well-known secret formats removed from coder output even when snodo does not know the value (a key
 * the coder found in the repository, in `~/.aws`, in an environment it printed). Redaction is hygiene, not
 * a boundary: the sandbox is what keeps secrets out of reach.
 *
 * Every pattern is tried only at the start of a "word" (a run of `A-Z a-z 0-9 _ - .`), anchored with the
 * sticky flag, and no pattern has a quantifier whose characters overlap what follows it, so matching is
 * linear in the length of the text whatever a hostile coder prints. Order matters: the first match wins.
 * The redactor joins them into one expression, so a pattern has no capturing group and no flag but `y`.
 */
export interface SecretPattern {
  /** What the marker calls it: `[redacted <kind>]`. */
  readonly kind: string;
  /** A sticky (`y`) regular expression tried at the start of a word. */
  readonly pattern: RegExp;
}

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  // Anthropic API keys: `sk-ant-api03-…`, `sk-ant-admin01-…` (about 100 characters).
  { kind: 'anthropic key', pattern: /sk-ant-[A-Za-z0-9_-]{32,}/y },
  // OpenAI keys: legacy `sk-…` (48 characters), project `sk-proj-…`, service account and admin keys.
  { kind: 'openai key', pattern: /sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/y },
  // GitHub fine-grained personal access tokens.
  { kind: 'github token', pattern: /github_pat_[A-Za-z0-9_]{22,}/y },
  // GitHub classic tokens: personal (ghp_), OAuth (gho_), user-to-server (ghu_), server (ghs_), refresh (ghr_).
  { kind: 'github token', pattern: /gh[pousr]_[A-Za-z0-9]{36,}/y },
  // AWS access key ids: long-term (AKIA) and temporary (ASIA), exactly 20 characters.
  { kind: 'aws access key', pattern: /(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/y },
  // Slack tokens: bot, user, app-level, refresh (`xoxb-…`, `xoxp-…`, `xoxa-…`, `xoxr-…`, `xoxs-…`, `xoxo-…`).
  { kind: 'slack token', pattern: /xox[abposr]-[A-Za-z0-9-]{10,}/y },
  // Google API keys: `AIza` and 35 more characters.
  { kind: 'google api key', pattern: /AIza[A-Za-z0-9_-]{35}/y },
  // JSON Web Tokens: three base64url parts, the first two JSON objects (`eyJ` is `{"`).
  { kind: 'jwt', pattern: /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/y },
];

/**
 * No pattern matches at the start of a word shorter than this, whatever follows the word (a test tries every
 * shorter word before every other character), so the redactor skips such words without running a pattern.
 */
export const SHORTEST_SECRET_WORD = 3;

/**
 * The first line of a PEM private key block (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted, PGP), raw or inside
 * a JSON string. The bounded `{0,40}` keeps a line of repeated near-misses linear.
 */
export const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/;

/** The last line of that block. */
export const PRIVATE_KEY_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/;

/** Longest BEGIN/END line; an unfinished one at the end of a chunk is held back up to this length. */
export const PRIVATE_KEY_MARKER_LENGTH = 80;
