/**
 * The variables a coder's process may inherit from snodo's environment. Everything else is dropped: other
 * providers' keys, `AWS_*`, `GITHUB_TOKEN`/`GH_TOKEN`/`NPM_TOKEN`, `SSH_AUTH_SOCK` (would let the agent
 * push or ssh anywhere), `GIT_DIR`/`GIT_WORK_TREE`/`GIT_INDEX_FILE` (leak in from git hooks and corrupt
 * the worktree's index), `NODE_OPTIONS`, `LD_PRELOAD`, `DYLD_*` (code injection), `CLAUDECODE` (the
 * nesting guard set when snodo itself runs inside Claude Code) and `*_BASE_URL` (would silently point a
 * CLI at another endpoint).
 *
 * An entry ending in `*` matches every name with that prefix, one starting with `*` every name with that
 * suffix (`*_API_KEY`). Proxy variables are kept in both cases because tools disagree on which one they
 * read.
 */
export const CODER_ENVIRONMENT_ALLOW_LIST: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_*',
  'TERM',
  'COLORTERM',
  'TZ',
  'TMPDIR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
];

/** What `buildCoderEnvironment` is given. */
export interface BuildCoderEnvironmentOptions {
  /** The environment to filter, usually `process.env` of snodo itself. */
  readonly parentEnv: Readonly<Record<string, string | undefined>>;
  /**
   * This coder's credentials, already looked up by core (`{ ANTHROPIC_API_KEY: '…' }`). Added after the
   * filter, so they are the only secrets in the result.
   */
  readonly credentials: Readonly<Record<string, string>>;
  /**
   * More names (or `PREFIX*` / `*SUFFIX` patterns) to keep, from the adapter (`OPENCODE_*`) or a process
   * that is not a coder but must be as careful (the CLI's background run adds `SNODO_*`, `*_API_KEY`). Use
   * sparingly: each one is a way for a secret to reach the child.
   */
  readonly extraAllowed?: readonly string[];
  /** A private home directory for this job (hermetic runs): replaces `HOME`. */
  readonly homeDirectory?: string;
}

function matches(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    if (pattern.endsWith('*')) return name.startsWith(pattern.slice(0, -1));
    if (pattern.startsWith('*')) return name.endsWith(pattern.slice(1));
    return name === pattern;
  });
}

/**
 * Builds a coder's environment from an allow-list (never "`process.env` minus a deny-list", which misses
 * every secret nobody thought of): the variables in `CODER_ENVIRONMENT_ALLOW_LIST` and `extraAllowed`
 * that are set in `parentEnv`, then `HOME` replaced by `homeDirectory` when given, then `credentials`.
 *
 * Core calls it once per run and passes the result as `request.env` and `checkAvailability({ env })`; the
 * CLI's background run filters its own child's environment with it too (one allow-list, one matcher).
 */
export function buildCoderEnvironment(options: BuildCoderEnvironmentOptions): Record<string, string> {
  const patterns = [...CODER_ENVIRONMENT_ALLOW_LIST, ...(options.extraAllowed ?? [])];
  const environment: Record<string, string> = {};
  for (const name of Object.keys(options.parentEnv).sort()) {
    const value = options.parentEnv[name];
    if (value !== undefined && matches(name, patterns)) environment[name] = value;
  }
  if (options.homeDirectory !== undefined) environment.HOME = options.homeDirectory;
  for (const [name, value] of Object.entries(options.credentials)) environment[name] = value;
  return environment;
}
