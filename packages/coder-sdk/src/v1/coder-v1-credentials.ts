/**
 * Where a coder's credentials come from. Core reads this to look a key up (snodo config first, then the
 * environment), to inject only this coder's credentials into its environment, and to word the
 * `CODER_CREDENTIALS_MISSING` error.
 */
export interface CoderV1Credentials {
  /**
   * Environment variables that can carry the credential, in order of preference
   * (`['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN']`). The first one found is passed to the coder under
   * its own name; other variables of other tools never are. Empty when the coder needs no key.
   */
  readonly envVars: readonly string[];

  /**
   * The provider name under which `snodo config add <provider> <key>` stores this coder's key
   * (`anthropic`, `openai`). When set, core injects a stored key as `envVars[0]`.
   */
  readonly configKey?: string;

  /**
   * `true` when the coder can run without a key from snodo: the CLI has its own login (an OAuth session in
   * its home directory) or needs no credential at all. A missing key is then not an error; the CLI's own
   * failure, if any, surfaces as `CODER_FAILED`.
   */
  readonly optional?: boolean;
}
