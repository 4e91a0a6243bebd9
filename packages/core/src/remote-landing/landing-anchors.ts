import { git } from '../git/index.js';
import { readAuditAnchors } from './audit-trailer.js';
import type { RemoteAuditFailure } from './remote-audit-verification.js';
import type { VerifiedWorkerChain } from './worker-chain.js';

/** What checking the base's landings found. */
export interface LandingAnchorCheck {
  readonly checked: number;
  readonly anchored: number;
  readonly failures: readonly RemoteAuditFailure[];
}

/**
 * Checks every commit on `base`'s first-parent history that carries a `Snodo-Audit` trailer (a snodo
 * landing): the worker it names has a chain on the remote; that chain's signed part has the event at that
 * seq with that hash; the event is a `remote-landing-start` whose tree, parents and job are the commit's;
 * and no other landing claims the same event. A chain that failed its own verification is reported there,
 * and its landings count as not anchored without a second failure.
 */
export async function checkLandingAnchors(options: {
  readonly clone: string;
  readonly base: string;
  readonly chains: ReadonlyMap<string, VerifiedWorkerChain>;
}): Promise<LandingAnchorCheck> {
  const log = await git(
    ['log', '--first-parent', '--format=%H%x00%T%x00%P%x00%B%x1e', '--end-of-options', options.base, '--'],
    { cwd: options.clone, readOnly: true },
  );
  const failures: RemoteAuditFailure[] = [];
  const claimed = new Map<string, string>();
  let checked = 0;
  let anchored = 0;
  for (const record of log.stdout.split('\x1e')) {
    const [commit = '', tree = '', parentList = '', message = ''] = record.replace(/^\n/, '').split('\0');
    const anchors = readAuditAnchors(message);
    if (commit === '' || anchors.length === 0) continue;
    checked += 1;
    const parents = parentList.split(' ').filter(Boolean);
    const job = message
      .split('\n')
      .find((line) => line.startsWith('Snodo-Job: '))
      ?.slice('Snodo-Job: '.length)
      .trim();
    const short = commit.slice(0, 12);
    const unanchored = (reason: string, worker?: string): void => {
      failures.push({ code: 'E_LANDING_UNANCHORED', commit, ...(worker ? { worker } : {}), reason });
    };
    const anchor = anchors[0];
    if (anchors.length > 1 || anchor === undefined || 'malformed' in anchor) {
      unanchored(
        anchors.length > 1
          ? `landing ${short} carries ${anchors.length} Snodo-Audit trailers; a landing names exactly one event`
          : `landing ${short} has a Snodo-Audit trailer that is not \`worker=<id> seq=<n> hash=<h>\`: ${JSON.stringify((anchor as { malformed: string }).malformed)}`,
      );
      continue;
    }
    const chain = options.chains.get(anchor.worker);
    if (chain === undefined) {
      failures.push({
        code: 'E_CHAIN_MISSING',
        commit,
        worker: anchor.worker,
        reason: `landing ${short} names worker ${anchor.worker}, whose chain refs/snodo/audit/${anchor.worker} is not on the remote`,
      });
      continue;
    }
    if (!chain.summary.ok) continue;
    const where = `event seq ${anchor.seq} of worker ${anchor.worker}'s chain`;
    const event = chain.events.get(anchor.seq);
    if (event === undefined) {
      unanchored(`landing ${short} points at ${where}, which the signed chain does not hold`, anchor.worker);
      continue;
    }
    if (event.hash !== anchor.hash) {
      unanchored(
        `landing ${short} names ${where} with hash ${anchor.hash.slice(0, 16)}…, but that event hashes to ${event.hash.slice(0, 16)}…`,
        anchor.worker,
      );
      continue;
    }
    const landing = chain.landings.get(anchor.seq);
    if (landing === undefined) {
      unanchored(
        `landing ${short} points at ${where}, a ${event.type} event, not a remote-landing-start`,
        anchor.worker,
      );
      continue;
    }
    if (landing.tree !== tree || landing.parents.join(' ') !== parents.join(' ') || landing.job !== job) {
      unanchored(
        `${where} records job ${landing.job ?? '-'} with tree ${landing.tree.slice(0, 12)} on ${landing.parents.map((parent) => parent.slice(0, 12)).join(', ')}, ` +
          `but landing ${short} is job ${job ?? '-'} with tree ${tree.slice(0, 12)} on ${parents.map((parent) => parent.slice(0, 12)).join(', ')}`,
        anchor.worker,
      );
      continue;
    }
    const key = `${anchor.worker}#${anchor.seq}`;
    const earlier = claimed.get(key);
    if (earlier !== undefined) {
      unanchored(
        `landing ${short} claims ${where}, which already anchors landing ${earlier.slice(0, 12)}`,
        anchor.worker,
      );
      continue;
    }
    claimed.set(key, commit);
    anchored += 1;
  }
  return { checked, anchored, failures };
}
