import type { OpencodeRuntime } from './opencode-runtime.js';

/** The credentials of a server the user runs. */
export interface UrlServerCredentials {
  readonly username: string;
  readonly password: string | undefined;
}

/**
 * The user's own server (`runtime: url`): `url` from the settings; the password from the settings, else
 * `OPENCODE_SERVER_PASSWORD` in the coder's environment (put there through `coders.opencode.env`); the
 * user likewise, defaulting to OpenCode's own `opencode`.
 */
export function urlServerCredentials(
  settings: { readonly username: string | undefined; readonly password: string | undefined },
  env: Readonly<Record<string, string>>,
): UrlServerCredentials {
  const fromEnv = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  return {
    username: settings.username ?? fromEnv('OPENCODE_SERVER_USERNAME') ?? 'opencode',
    password: settings.password ?? fromEnv('OPENCODE_SERVER_PASSWORD'),
  };
}

/**
 * A server snodo did not start and never stops. Reuse is the point: one long-running server can serve many
 * worktrees, since every call names its worktree (`?directory=`). Stopping it only forgets it; the run
 * still deletes its own session.
 */
export function useUrlRuntime(url: string, credentials: UrlServerCredentials): OpencodeRuntime {
  return {
    kind: 'url',
    url,
    username: credentials.username,
    password: credentials.password,
    argv: undefined,
    description: `the OpenCode server at ${url}`,
    exitDescription: () => undefined,
    stderrTail: () => '',
    stop: async () => {},
  };
}
