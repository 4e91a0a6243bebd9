/** Replaced at build time by tsup (`define`) with the version in package.json, so the two never drift. */
declare const __SNODO_CLI_VERSION__: string | undefined;

/** The snodo CLI's version, as `snodo --version` prints it. */
export const VERSION: string =
  typeof __SNODO_CLI_VERSION__ === 'string' ? __SNODO_CLI_VERSION__ : '0.0.0-development';
