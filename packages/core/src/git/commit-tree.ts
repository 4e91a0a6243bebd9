import { git } from './git.js';
import { type GitIdentity, identityEnvironment } from './git-identity.js';

/**
 * Create a commit object from `tree` with `parents` and `message` (on stdin) without touching any index,
 * working tree or ref: the plumbing landing uses to build merge and squash commits. Returns its id.
 */
export async function commitTree(options: {
  cwd: string;
  tree: string;
  parents: readonly string[];
  message: string;
  identity: GitIdentity;
}): Promise<string> {
  const args = ['commit-tree'];
  for (const parent of options.parents) args.push('-p', parent);
  args.push('-F', '-', '--end-of-options', options.tree);
  const result = await git(args, {
    cwd: options.cwd,
    input: options.message,
    env: identityEnvironment(options.identity),
  });
  return result.stdout.trim();
}
