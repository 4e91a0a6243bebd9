import { RemoteLandingInvalidError } from '../errors.js';
import { findRepositoryRoot, git, isAncestor, resolveCommit } from '../git/index.js';
import { checkLandingAnchors } from './landing-anchors.js';
import type { RemoteAuditFailure, RemoteAuditVerification } from './remote-audit-verification.js';
import {
  baseBranchName,
  incomingCopyPrefix,
  verifiedCopyPrefix,
  WORKER_AUDIT_REF_PREFIX,
  WORKER_KEYS_REF,
} from './remote-landing-refs.js';
import { fetchFromRemote, requireRemote } from './remote-transfer.js';
import { type VerifiedWorkerChain, verifyWorkerChain } from './worker-chain.js';
import { readWorkerKeyRegistry } from './worker-key-registry.js';

export type {
  RemoteAuditFailure,
  RemoteAuditFailureCode,
  RemoteAuditVerification,
  RemoteChainSummary,
} from './remote-audit-verification.js';

/** The remote's default branch (`git ls-remote --symref <remote> HEAD`), or `undefined`. */
async function remoteDefaultBranch(clone: string, remote: string): Promise<string | undefined> {
  const listed = await git(['ls-remote', '--symref', '--end-of-options', remote, 'HEAD'], {
    cwd: clone,
    allowFailure: true,
    readOnly: true,
  });
  const match = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(listed.stdout);
  return match?.[1];
}

/** Name → tip of the refs under `prefix`. */
async function refsUnder(clone: string, prefix: string): Promise<Map<string, string>> {
  const listed = await git(['for-each-ref', '--format=%(refname)%00%(objectname)', prefix], {
    cwd: clone,
    readOnly: true,
  });
  const refs = new Map<string, string>();
  for (const line of listed.stdout.split('\n')) {
    const [name, objectId] = line.split('\0');
    if (name !== undefined && objectId !== undefined && name.startsWith(prefix)) {
      refs.set(name.slice(prefix.length), objectId);
    }
  }
  return refs;
}

/** `true` when `before` (what was verified last time) is still contained in `after`. */
async function stillContains(clone: string, before: string, after: string): Promise<boolean> {
  return before === after || (await isAncestor(clone, before, after).catch(() => false));
}

/**
 * `snodo audit verify --remote <remote>` (issue 16, item 5): one verifiable history across workers. Fetches
 * the base, every worker chain (`refs/snodo/audit/*`) and the key registry (`refs/snodo/keys`) into
 * `refs/snodo/remotes/<remote>/incoming/`, then checks that the registry is only added to, that every chain
 * verifies and is signed by its worker's registered key, that every snodo landing on the base's first-parent
 * history is anchored in one chain, and that nothing verified last time (kept under `…/verified/`) was
 * rewound or removed. Never throws for what it finds: the failures come back with stable codes.
 */
export async function verifyRemoteAudit(options: {
  readonly repositoryRoot: string;
  readonly remote: string;
  readonly base?: string | undefined;
}): Promise<RemoteAuditVerification> {
  const { remote } = options;
  await requireRemote(options.repositoryRoot, remote);
  const clone = await findRepositoryRoot(options.repositoryRoot);
  const requested = options.base ?? (await remoteDefaultBranch(clone, remote));
  if (requested === undefined) {
    throw new RemoteLandingInvalidError({
      what: 'The base branch of',
      value: remote,
      problem: 'the remote names no default branch; name the branch to check with --base <branch>',
    });
  }
  const base = baseBranchName(requested);
  if ('problem' in base) {
    throw new RemoteLandingInvalidError({ what: 'The base branch', value: requested, problem: base.problem });
  }
  const incoming = incomingCopyPrefix(remote);
  const verified = verifiedCopyPrefix(remote);
  const baseCopy = `${incoming}heads/${base.name}`;
  await fetchFromRemote(
    clone,
    remote,
    [
      `+refs/heads/${base.name}:${baseCopy}`,
      `+${WORKER_AUDIT_REF_PREFIX}*:${incoming}workers/*`,
      `+${WORKER_KEYS_REF}*:${incoming}keys*`,
    ],
    { prune: true },
  );
  const baseCommit = await resolveCommit(clone, baseCopy);
  if (baseCommit === undefined) {
    throw new RemoteLandingInvalidError({
      what: 'The base branch',
      value: base.name,
      problem: `${remote} has no such branch`,
    });
  }
  const failures: RemoteAuditFailure[] = [];

  const keysTip = await resolveCommit(clone, `${incoming}keys`);
  const verifiedKeys = await resolveCommit(clone, `${verified}keys`);
  const registry = await readWorkerKeyRegistry(clone, keysTip);
  const keyFailures = [...registry.failures];
  if (
    verifiedKeys !== undefined &&
    (keysTip === undefined || !(await stillContains(clone, verifiedKeys, keysTip)))
  ) {
    keyFailures.push({
      code: 'E_KEYS_REWRITTEN',
      reason: `${remote}'s ${WORKER_KEYS_REF} no longer contains ${verifiedKeys.slice(0, 12)}, verified before: the registry was rewound or replaced`,
    });
  }
  failures.push(...keyFailures);

  const chains = new Map<string, VerifiedWorkerChain>();
  const incomingChains = await refsUnder(clone, `${incoming}workers/`);
  const verifiedChains = await refsUnder(clone, `${verified}workers/`);
  const accepted: Array<[string, string]> = [];
  for (const [worker, tip] of [...incomingChains].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const chain = await verifyWorkerChain({
      clone,
      worker,
      ref: tip,
      registered: registry.keys.get(worker),
    });
    const chainFailures = [...chain.failures];
    const before = verifiedChains.get(worker);
    if (before !== undefined && !(await stillContains(clone, before, tip))) {
      chainFailures.push({
        code: 'E_CHAIN_REWRITTEN',
        worker,
        reason: `${remote}'s ${WORKER_AUDIT_REF_PREFIX}${worker} no longer contains ${before.slice(0, 12)}, verified before: the chain was rewound or replaced`,
      });
    }
    const ok = chainFailures.length === 0;
    chains.set(worker, { ...chain, failures: chainFailures, summary: { ...chain.summary, ok } });
    failures.push(...chainFailures);
    if (ok) accepted.push([worker, tip]);
  }
  for (const [worker, before] of verifiedChains) {
    if (incomingChains.has(worker)) continue;
    failures.push({
      code: 'E_CHAIN_MISSING',
      worker,
      reason: `${WORKER_AUDIT_REF_PREFIX}${worker} (verified before at ${before.slice(0, 12)}) is no longer on ${remote}`,
    });
  }

  const landings = await checkLandingAnchors({ clone, base: baseCommit, chains });
  failures.push(...landings.failures);

  // What verified becomes the reference the next verification must still find.
  for (const [worker, tip] of accepted) {
    await git(['update-ref', `${verified}workers/${worker}`, tip], { cwd: clone });
  }
  if (keysTip !== undefined && keyFailures.length === 0) {
    await git(['update-ref', `${verified}keys`, keysTip], { cwd: clone });
  }
  return {
    ok: failures.length === 0,
    remote,
    base: base.name,
    baseCommit,
    chains: [...chains.values()].map((chain) => chain.summary),
    keys: [...registry.keys]
      .map(([worker, entry]) => ({ worker, keyId: entry.keyId }))
      .sort((a, b) => (a.worker < b.worker ? -1 : 1)),
    landings: { checked: landings.checked, anchored: landings.anchored },
    failures,
  };
}
