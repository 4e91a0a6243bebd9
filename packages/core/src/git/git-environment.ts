/**
 * Variables that would make git act on a different repository, index or object store than the directory
 * snodo names, inject configuration snodo did not choose, or start a pager, editor or external diff. They
 * leak in when snodo itself runs from a git hook or an editor integration. The user's credentials setup
 * (`GIT_SSH_COMMAND`, `GIT_ASKPASS`) is kept: submodule initialisation may need it.
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

/** `GIT_CONFIG_KEY_<n>` / `GIT_CONFIG_VALUE_<n>` pairs: config injected through the environment. */
const scrubbedPattern = /^GIT_CONFIG_(KEY|VALUE)_\d+$/;

/**
 * The environment every git command of snodo runs with: the parent's environment minus the variables
 * above, plus settings that keep git non-interactive and deterministic. `readOnly` adds
 * `GIT_OPTIONAL_LOCKS=0` so a status poll never takes a worktree's `index.lock` from under a running agent.
 * Called by `git()`; exported so tests and the lead can see exactly what git receives.
 */
export function gitEnvironment(
  options: { readOnly?: boolean; extra?: Readonly<Record<string, string | undefined>> } = {},
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || scrubbedNames.has(key) || scrubbedPattern.test(key)) continue;
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
