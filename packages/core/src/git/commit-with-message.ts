import { git } from './git.js';
import { type GitIdentity, identityEnvironment, resolveGitIdentity } from './git-identity.js';
import { revParse } from './rev-parse.js';

/** Options of `commitWithMessage`. */
export interface CommitWithMessageOptions {
  /** The working tree to commit in (a task worktree, or the current checkout under `--no-isolation`). */
  readonly cwd: string;
  /** The full commit message, stored byte for byte (read from stdin, no cleanup, never from argv). */
  readonly message: string;
  /** Stage every change first (`git add --all`), as after an agent edited the tree. Default `false`. */
  readonly stageAll?: boolean;
  /** Allow a commit without changes (a marker commit). Default `false`. */
  readonly allowEmpty?: boolean;
  /**
   * Commit as this identity instead of resolving it (see `resolveGitIdentity`); `'configured'` when the
   * repository's own config is known to name one (a task workspace: snodo wrote it there), which spares the
   * lookup.
   */
  readonly identity?: GitIdentity | 'configured';
}

/**
 * Commit the staged changes in `cwd` with `message` on stdin (`git commit -F -`), hooks disabled twice over
 * (`core.hooksPath=/dev/null` and `--no-verify`), as the user's git identity or `snodo <snodo@localhost>`.
 * Returns the new commit id. Used after a coder run so the task branch gains exactly one commit.
 */
export async function commitWithMessage(options: CommitWithMessageOptions): Promise<string> {
  if (options.stageAll) await git(['add', '--all'], { cwd: options.cwd });
  const identity = options.identity ?? (await resolveGitIdentity(options.cwd));
  const args = ['commit', '--no-verify', '--no-edit', '--cleanup=verbatim', '--file=-'];
  if (options.allowEmpty) args.push('--allow-empty');
  const env = identity === 'configured' ? {} : identityEnvironment(identity);
  await git(args, { cwd: options.cwd, input: options.message, env });
  return revParse(options.cwd, 'HEAD^{commit}');
}
