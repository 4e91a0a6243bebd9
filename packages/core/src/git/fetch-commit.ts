import { git } from './git.js';

/**
 * Copy `commit` and the history it needs from the local repository `source` into the repository at
 * `cwd`, and nothing else: no ref, no tag, no `FETCH_HEAD`, no submodule, no gc, every received object
 * checked by fsck. snodo imports a task workspace's result into the user's repository this way.
 *
 * Asking for the commit id itself (not a ref) means git either brings exactly that commit or fails: an
 * object id names its content, so whatever the source repository does meanwhile, it cannot substitute
 * another commit.
 */
export async function fetchCommit(options: { cwd: string; source: string; commit: string }): Promise<void> {
  await git(
    [
      // NOTE: git ≥ 2.38.1 can be configured to refuse the file transport; the source is snodo's own
      // workspace on this machine, so it is always allowed here.
      '-c',
      'protocol.file.allow=always',
      '-c',
      'fetch.fsckObjects=true',
      '-c',
      'fetch.writeCommitGraph=false',
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--no-recurse-submodules',
      '--no-auto-gc',
      '--no-auto-maintenance',
      '--no-show-forced-updates',
      '--end-of-options',
      options.source,
      options.commit,
    ],
    { cwd: options.cwd },
  );
}
