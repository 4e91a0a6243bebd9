import { git, isAncestor, resolveCommit } from '../git/index.js';
import { AUDIT_CHECKPOINT_REF, remoteAuditRef } from './audit-paths.js';

/** Remote names snodo passes to git: a configured remote, never a URL or something that reads as a flag. */
const remoteName = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/**
 * NOTE: a push or fetch to an unreachable host would otherwise wait on the network for minutes; these
 * make a stalled HTTP transfer give up after 30 s (ssh keeps the user's own settings).
 */
const transferLimits = ['-c', 'http.lowSpeedLimit=1', '-c', 'http.lowSpeedTime=30'];

/** Why `remote` cannot be used, or `undefined` when it is a remote of this repository. */
async function checkRemote(repositoryRoot: string, remote: string): Promise<string | undefined> {
  if (!remoteName.test(remote) || remote.includes('..')) {
    return `audit.remote is ${JSON.stringify(remote)}, which is not a git remote name`;
  }
  const remotes = await git(['remote'], { cwd: repositoryRoot, allowFailure: true, readOnly: true });
  if (!remotes.stdout.split('\n').includes(remote)) {
    return `audit.remote is ${remote}, which is not a remote of this repository (add it with \`git remote add ${remote} <url>\`)`;
  }
  return undefined;
}

/**
 * Pushes `refs/snodo/audit` to `remote`, so a copy of the checkpoint chain lives where no coder on this
 * machine can reach it. Returns a warning in words when the push failed; a failed push never fails the job.
 */
export async function pushAuditRef(repositoryRoot: string, remote: string): Promise<string | undefined> {
  const problem = await checkRemote(repositoryRoot, remote);
  if (problem !== undefined) return `${problem}; ${AUDIT_CHECKPOINT_REF} was not pushed.`;
  const pushed = await git(
    [
      ...transferLimits,
      'push',
      '--quiet',
      '--no-verify',
      remote,
      `${AUDIT_CHECKPOINT_REF}:${AUDIT_CHECKPOINT_REF}`,
    ],
    { cwd: repositoryRoot, allowFailure: true },
  );
  if (pushed.exitCode === 0) return undefined;
  return (
    `Could not push ${AUDIT_CHECKPOINT_REF} to ${remote}: ${pushed.stderr || `git exited with ${pushed.exitCode}`}. ` +
    `The checkpoint is kept here; push it later with \`git push ${remote} ${AUDIT_CHECKPOINT_REF}\`.`
  );
}

/** What fetching a remote's checkpoint chain gave. */
export interface RemoteAuditFetch {
  /** The local copy, `refs/snodo/remotes/<remote>/audit`, when the fetch worked. */
  readonly ref?: string;
  /** Why the remote copy could not be checked, in words. */
  readonly notChecked?: string;
  /** The remote's chain no longer contains the commit fetched last time: it was rewound or replaced. */
  readonly rewound?: string;
}

/**
 * Fetches `remote`'s `refs/snodo/audit` into `refs/snodo/remotes/<remote>/audit`. Checkpoint commits are
 * only ever appended, so a remote chain that lost the commit fetched last time is reported (`rewound`) and
 * the local copy keeps the old chain, to be checked again next time rather than forgotten.
 */
export async function fetchRemoteAuditRef(repositoryRoot: string, remote: string): Promise<RemoteAuditFetch> {
  const problem = await checkRemote(repositoryRoot, remote);
  if (problem !== undefined) return { notChecked: problem };
  const local = remoteAuditRef(remote);
  const incoming = `${local}-incoming`;
  const before = await resolveCommit(repositoryRoot, local);
  const fetched = await git(
    [
      ...transferLimits,
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      remote,
      `+${AUDIT_CHECKPOINT_REF}:${incoming}`,
    ],
    { cwd: repositoryRoot, allowFailure: true },
  );
  if (fetched.exitCode !== 0) {
    return {
      ...(before === undefined ? {} : { ref: local }),
      notChecked: `the copy on ${remote}: fetching ${AUDIT_CHECKPOINT_REF} failed (${fetched.stderr || `exit ${fetched.exitCode}`})`,
    };
  }
  const after = await resolveCommit(repositoryRoot, incoming);
  await git(['update-ref', '-d', incoming], { cwd: repositoryRoot, allowFailure: true });
  if (after === undefined)
    return { notChecked: `the copy on ${remote}: ${AUDIT_CHECKPOINT_REF} is not a commit` };
  if (
    before !== undefined &&
    before !== after &&
    !(await isAncestor(repositoryRoot, before, after).catch(() => false))
  ) {
    return {
      ref: local,
      rewound: `${remote}'s ${AUDIT_CHECKPOINT_REF} (now ${after.slice(0, 12)}) no longer contains ${before.slice(0, 12)}, fetched before: it was rewound or replaced`,
    };
  }
  await git(['update-ref', local, after], { cwd: repositoryRoot });
  return { ref: local };
}
