import { GIT_TIMEOUT_VARIABLE } from '../errors/git-command-error.js';
import { GitTimeoutInvalidError } from '../errors/git-timeout-invalid-error.js';

/**
 * How long one git command snodo runs may take when nothing else is said: long enough for a fetch or a
 * `worktree add` of a large repository on a slow disk, short enough that a fetch stuck on an ssh or
 * credential prompt nobody sees ends the run with a reason instead of holding it for ever.
 */
export const DEFAULT_GIT_TIMEOUT_MS = 600_000;

/**
 * The time limit of one git command: the caller's, else `SNODO_GIT_TIMEOUT_SECONDS`, else the default.
 * Throws `GitTimeoutInvalidError` for a variable that is not a number of seconds above zero.
 */
export function gitTimeoutMs(requested: number | undefined): number {
  if (requested !== undefined) return requested;
  const value = process.env[GIT_TIMEOUT_VARIABLE];
  if (value === undefined || value === '') return DEFAULT_GIT_TIMEOUT_MS;
  const seconds = Number(value.trim());
  if (!Number.isFinite(seconds) || seconds <= 0 || value.trim() === '') {
    throw new GitTimeoutInvalidError({ variable: GIT_TIMEOUT_VARIABLE, value });
  }
  return Math.round(seconds * 1000);
}
