import { git } from './git.js';

/** Who snodo's commits are attributed to. Returned by `resolveGitIdentity`. */
export interface GitIdentity {
  /** Author and committer name. */
  readonly name: string;
  /** Author and committer email. */
  readonly email: string;
  /**
   * `git`: the user's own identity (their config or `GIT_AUTHOR_*` variables), and git resolves it again at
   * commit time; `fallback`: none is configured, so snodo commits as `snodo <snodo@localhost>` rather than
   * failing or letting git guess one from the host name.
   */
  readonly source: 'git' | 'fallback';
}

/** The identity snodo commits as when the user has none configured. */
export const fallbackIdentity: GitIdentity = { name: 'snodo', email: 'snodo@localhost', source: 'fallback' };

/**
 * The identity git would use for a commit in `cwd`, without git's guessing from the host name
 * (`user.useConfigOnly`), or snodo's fallback when none is configured. Commit helpers pass the result to
 * `identityEnvironment`.
 */
export async function resolveGitIdentity(cwd: string): Promise<GitIdentity> {
  const result = await git(['-c', 'user.useConfigOnly=true', 'var', 'GIT_AUTHOR_IDENT'], {
    cwd,
    allowFailure: true,
    readOnly: true,
  });
  const match = /^(.*) <(.*)> \d+ [+-]\d{4}$/.exec(result.stdout.trim());
  if (result.exitCode !== 0 || match === null || !match[1] || !match[2]) return fallbackIdentity;
  return { name: match[1], email: match[2], source: 'git' };
}

/**
 * The environment variables a commit needs for `identity`: none for the user's own identity (git resolves
 * it the same way, keeping a distinct committer if they set one), all four `GIT_AUTHOR_*`/`GIT_COMMITTER_*`
 * for the fallback.
 */
export function identityEnvironment(identity: GitIdentity): Record<string, string> {
  if (identity.source === 'git') return {};
  return {
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
  };
}
