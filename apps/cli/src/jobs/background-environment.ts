import { buildCoderEnvironment } from '@snodo/coder-sdk';

/**
 * What a detached run needs of the environment besides what a coder may inherit: snodo's own settings
 * (`SNODO_HOME`…), the XDG and git identity variables snodo and git read, and where model keys and
 * endpoints live (`ANTHROPIC_API_KEY`, `OPENAI_BASE_URL`). The rest (`NODE_OPTIONS`, `LD_PRELOAD`,
 * `SSH_AUTH_SOCK`, tokens nothing reads) stays with the terminal that started it.
 */
const BACKGROUND_RUN_NAMES = [
  'SNODO_*',
  'XDG_*',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  '*_API_KEY',
  '*_BASE_URL',
];

/**
 * The environment of a background run's process. The filter is coder-sdk's `buildCoderEnvironment` (the
 * one allow-list matcher, so the two cannot drift apart): the coders' allow-list, `BACKGROUND_RUN_NAMES`,
 * and `extraNames` (the variables config names as `api_key_env`, the coder's credential variables). Colour
 * is off: the output goes to a file.
 */
export function backgroundEnvironment(
  parentEnv: Readonly<Record<string, string | undefined>>,
  extraNames: readonly string[],
): Record<string, string> {
  const environment = buildCoderEnvironment({
    parentEnv,
    credentials: {},
    extraAllowed: [...BACKGROUND_RUN_NAMES, ...extraNames],
  });
  environment.NO_COLOR = '1';
  delete environment.FORCE_COLOR;
  return environment;
}
