import { RemoteLandingInvalidError, RemoteTransferFailedError } from '../errors.js';
import { git } from '../git/index.js';

/** Remote names snodo passes to git: a configured remote, never a URL or something that reads as a flag. */
const remoteNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * NOTE: a transfer to an unreachable host would otherwise wait on the network for minutes; these make a
 * stalled HTTP transfer give up after 30 s (ssh keeps the user's own settings). Received objects are
 * checked by fsck, as every fetch snodo makes.
 */
const transferSettings = [
  '-c',
  'http.lowSpeedLimit=1',
  '-c',
  'http.lowSpeedTime=30',
  '-c',
  'fetch.fsckObjects=true',
  '-c',
  'fetch.writeCommitGraph=false',
];

/** Refuses a remote that is not a configured remote of `clone` (a URL, a typo, something flag-like). */
export async function requireRemote(clone: string, remote: string): Promise<void> {
  if (!remoteNamePattern.test(remote) || remote.includes('..')) {
    throw new RemoteLandingInvalidError({
      what: 'The remote',
      value: remote,
      problem:
        'it is not a git remote name (give the name of a configured remote, such as origin, not a URL)',
    });
  }
  const remotes = await git(['remote'], { cwd: clone, allowFailure: true, readOnly: true });
  if (!remotes.stdout.split('\n').includes(remote)) {
    throw new RemoteLandingInvalidError({
      what: 'The remote',
      value: remote,
      problem: `${clone} has no remote of that name (add it with \`git remote add ${remote} <url>\`)`,
    });
  }
}

/**
 * Fetches `refspecs` from `remote` into `clone`: no tags, no FETCH_HEAD, no submodules, no gc. `prune`
 * removes local copies (within the refspecs' destinations) whose source is gone, so a copy always says what
 * the remote holds now. Throws `RemoteTransferFailedError` with git's message.
 */
export async function fetchFromRemote(
  clone: string,
  remote: string,
  refspecs: readonly string[],
  options: { prune?: boolean } = {},
): Promise<void> {
  const fetched = await git(
    [
      ...transferSettings,
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--no-recurse-submodules',
      '--no-auto-gc',
      '--no-auto-maintenance',
      ...(options.prune ? ['--prune'] : []),
      '--end-of-options',
      remote,
      ...refspecs,
    ],
    { cwd: clone, allowFailure: true },
  );
  if (fetched.exitCode !== 0) {
    throw new RemoteTransferFailedError({
      remote,
      operation: 'fetch from',
      detail: fetched.stderr || `git fetch exited with ${fetched.exitCode}`,
    });
  }
}

/** One ref a push moves, and the value the remote must still hold for it (`null`: must not exist yet). */
export interface LeasedUpdate {
  readonly source: string;
  readonly destination: string;
  readonly expected: string | null;
}

/** What an atomic push did: all refs moved, none (a lease no longer held), or git failed otherwise. */
export type AtomicPushOutcome =
  | { readonly status: 'pushed' }
  | { readonly status: 'stale'; readonly detail: string }
  | { readonly status: 'failed'; readonly detail: string };

/**
 * Pushes every update in one `git push --atomic`, each under `--force-with-lease=<ref>:<expected>`: the
 * remote moves all of them or none, and only if each still points where this lander saw it. That is the
 * compare-and-swap across machines: a lander that lost the race gets `stale` and nothing of its push lands.
 */
export async function pushAtomically(
  clone: string,
  remote: string,
  updates: readonly LeasedUpdate[],
): Promise<AtomicPushOutcome> {
  const leases = updates.map((update) => `--force-with-lease=${update.destination}:${update.expected ?? ''}`);
  const pushed = await git(
    [
      ...transferSettings,
      'push',
      '--porcelain',
      '--atomic',
      '--no-verify',
      ...leases,
      '--end-of-options',
      remote,
      ...updates.map((update) => `${update.source}:${update.destination}`),
    ],
    { cwd: clone, allowFailure: true },
  );
  if (pushed.exitCode === 0) return { status: 'pushed' };
  // `--porcelain` prints one line per ref: `!\t<src>:<dst>\t[rejected] (stale info)`. Under --atomic the
  // refs that were fine say `(atomic push failed)`; the one that caused it says why.
  const refused = pushed.stdout
    .split('\n')
    .filter((line) => line.startsWith('!'))
    .map((line) => line.split('\t').slice(1).join(' '));
  const causes = refused.filter((line) => !line.includes('(atomic push failed)'));
  const detail =
    (causes.length > 0 ? causes : refused).join('; ') || pushed.stderr || `exit ${pushed.exitCode}`;
  const leaseRefused =
    causes.length > 0 && causes.every((line) => /\((stale info|fetch first|non-fast-forward)\)/.test(line));
  // NOTE: two pushes can both pass the client-side lease check (both saw the same refs advertised); the
  // remote's own ref transaction is then the compare-and-swap, and the loser's refs come back `[remote
  // rejected] (atomic transaction failed)` with "cannot lock ref …: is at X but expected Y" ("reference
  // already exists" for two creations, or the other push's lock file) in stderr. The same lost race.
  const remoteRaceLost =
    /cannot lock ref '[^']+': (.*but expected|reference already exists)/.test(pushed.stderr) ||
    /Unable to create '[^']+\.lock': File exists/.test(pushed.stderr);
  if (leaseRefused || remoteRaceLost) {
    return { status: 'stale', detail: remoteRaceLost ? firstRemoteError(pushed.stderr) : detail };
  }
  const gitSaid = pushed.stderr
    .split('\n')[0]
    ?.replace(/^remote:\s*/, '')
    .trim();
  return {
    status: 'failed',
    detail:
      (gitSaid ? `${detail} (${gitSaid})` : detail) +
      (/exists; cannot create/.test(pushed.stderr) ? directoryConflictHint : ''),
  };
}

/**
 * NOTE: git stores refs as paths, so a remote cannot hold both `refs/snodo/audit` (the single-machine
 * checkpoint ref that `audit.remote` pushes) and `refs/snodo/audit/<worker>`.
 */
const directoryConflictHint =
  '. The remote holds refs/snodo/audit itself (a single-machine `audit.remote` pushes it), which leaves no room ' +
  'for worker chains under refs/snodo/audit/<worker>: point audit.remote at another remote, or move that ref away';

/** The first `remote: error:` line of a push's stderr, without the prefix and trailing padding. */
function firstRemoteError(stderr: string): string {
  const line = stderr.split('\n').find((text) => /cannot lock ref/.test(text)) ?? stderr.split('\n')[0] ?? '';
  return line.replace(/^remote:\s*(error:\s*)?/, '').trim();
}
