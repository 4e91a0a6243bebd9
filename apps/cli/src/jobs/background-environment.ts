import { CODER_ENVIRONMENT_ALLOW_LIST } from '@snodo/coder-sdk';

/**
 * What a detached run needs of the environment besides what a coder may inherit: snodo's own settings
 * (`SNODO_HOME`…), the XDG and git identity variables snodo and git read, and where model keys and
 * endpoints live. The rest (`NODE_OPTIONS`, `LD_PRELOAD`, `SSH_AUTH_SOCK`, tokens nothing reads) stays
 * with the terminal that started it.
 */
const SNODO_NAMES = [
  'SNODO_*',
  'XDG_*',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
];

/** Provider keys and endpoints follow these shapes (`ANTHROPIC_API_KEY`, `OPENAI_BASE_URL`). */
const PROVIDER_SUFFIXES = ['_API_KEY', '_BASE_URL'];

function allowed(name: string, exact: ReadonlySet<string>): boolean {
  if (exact.has(name)) return true;
  if (PROVIDER_SUFFIXES.some((suffix) => name.endsWith(suffix))) return true;
  return [...CODER_ENVIRONMENT_ALLOW_LIST, ...SNODO_NAMES].some((pattern) =>
    pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern,
  );
}

/**
 * The environment of a background run's process, from an allow-list: the coders' allow-list, snodo's own
 * names, provider keys and endpoints, and `extraNames` (the variables config names as `api_key_env`, the
 * coder's credential variables). Colour is off: the output goes to a file.
 */
export function backgroundEnvironment(
  parentEnv: Readonly<Record<string, string | undefined>>,
  extraNames: readonly string[],
): Record<string, string> {
  const exact = new Set(extraNames);
  const environment: Record<string, string> = {};
  for (const name of Object.keys(parentEnv).sort()) {
    const value = parentEnv[name];
    if (value !== undefined && allowed(name, exact)) environment[name] = value;
  }
  environment.NO_COLOR = '1';
  delete environment.FORCE_COLOR;
  return environment;
}
