/**
 * The one set of rules every git command snodo runs itself follows, whichever package runs it and whether
 * it goes through `runGit`, `runGitSync` or the simple-git client: these flags first on the command line,
 * this environment. Worktrees share the main repository's hooks and config, so a coder can plant a hook or
 * an fsmonitor command that would run the next time snodo calls git; these overrides make sure snodo's own
 * git calls never execute anything from the repository, never wait for a human and read the same way on
 * every machine.
 */
export const hardeningArguments: readonly string[] = [
  '--no-pager',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'color.ui=false',
  // NOTE: a user's commit.gpgSign would make snodo's own commits wait on a pinentry prompt that nobody
  // sees. snodo's commits are attested by its signed audit checkpoints instead.
  '-c',
  'commit.gpgSign=false',
  // snodo's own commits must not start `git maintenance` or a gc in the user's repository mid-run.
  '-c',
  'maintenance.auto=false',
  '-c',
  'gc.auto=0',
];

/**
 * Variables that would make git act on a different repository, index or object store than the directory
 * snodo names, inject configuration snodo did not choose, or start a pager, editor or external diff. They
 * leak in when snodo itself runs from a git hook or an editor integration. The user's credentials setup
 * (`GIT_SSH_COMMAND`, `GIT_ASKPASS`) and config locations (`GIT_CONFIG_GLOBAL`) are kept: fetching and
 * submodule initialisation may need them.
 */
const scrubbedNames = new Set([
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_QUARANTINE_PATH',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_EXTERNAL_DIFF',
  'GIT_PAGER',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
]);

/** `GIT_CONFIG_KEY_<n>` / `GIT_CONFIG_VALUE_<n>`: config injected through the environment. */
function isInjectedConfiguration(name: string): boolean {
  return name.startsWith('GIT_CONFIG_KEY_') || name.startsWith('GIT_CONFIG_VALUE_');
}

/** What `gitEnvironment` builds on. */
export interface GitEnvironmentOptions {
  /** A read that must not take optional locks (`GIT_OPTIONAL_LOCKS=0`), so polling never blocks an agent's commit. */
  readonly readOnly?: boolean;
  /** Variables set last, over everything else (a commit identity); `undefined` removes one. */
  readonly extra?: Readonly<Record<string, string | undefined>>;
}

/**
 * The environment every git command of snodo runs with: snodo's own environment minus the variables
 * above, plus settings that keep git non-interactive and deterministic. Called by the runner; exported so
 * tests and embedders can see exactly what git receives.
 */
export function gitEnvironment(options: GitEnvironmentOptions = {}): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || scrubbedNames.has(key) || isInjectedConfiguration(key)) continue;
    environment[key] = value;
  }
  environment.GIT_TERMINAL_PROMPT = '0';
  environment.GIT_PAGER = 'cat';
  environment.PAGER = 'cat';
  // NOTE: an editor would wait forever for a human; ':' makes any command that asks for one use the
  // message it was given.
  environment.GIT_EDITOR = ':';
  // NOTE: without this, a path such as `*.ts` or `:(top)x` in an argv is a glob or pathspec magic.
  environment.GIT_LITERAL_PATHSPECS = '1';
  environment.LC_ALL = 'C';
  if (options.readOnly) environment.GIT_OPTIONAL_LOCKS = '0';
  for (const [key, value] of Object.entries(options.extra ?? {})) {
    if (value === undefined) delete environment[key];
    else environment[key] = value;
  }
  return environment;
}
