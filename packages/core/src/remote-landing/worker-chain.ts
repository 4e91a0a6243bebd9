import type { KeyObject } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCheckpointSignature, type SignedCheckpoint, verifyAuditLog } from '@snodo/audit';
import { readRefCheckpointCommits } from '../audit-trail/checkpoint-ref.js';
import { git } from '../git/index.js';
import { SNAPSHOT_LOG_FILE } from './chain-snapshot.js';
import type { RemoteAuditFailure, RemoteChainSummary } from './remote-audit-verification.js';

/** A signed event of a chain that records a landing (`remote-landing-start`). */
export interface LandingEvent {
  readonly hash: string;
  readonly job: string | undefined;
  readonly tree: string;
  readonly parents: readonly string[];
}

/** One chain verified: its summary, its failures, and its signed landing events by seq. */
export interface VerifiedWorkerChain {
  readonly summary: RemoteChainSummary;
  readonly failures: readonly RemoteAuditFailure[];
  /** Every event of the signed part of the chain by seq (hash and type), for anchors to be looked up in. */
  readonly events: ReadonlyMap<number, { readonly hash: string; readonly type: string }>;
  readonly landings: ReadonlyMap<number, LandingEvent>;
}

/** The events of a snapshot's log that anchors can point at: seq → hash and type, and the landing records. */
function indexEvents(text: string): Pick<VerifiedWorkerChain, 'events' | 'landings'> {
  const events = new Map<number, { hash: string; type: string }>();
  const landings = new Map<number, LandingEvent>();
  for (const line of text.split('\n')) {
    let event: {
      seq?: unknown;
      hash?: unknown;
      type?: unknown;
      job?: unknown;
      data?: Record<string, unknown>;
    };
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof event.seq !== 'number' || typeof event.hash !== 'string' || typeof event.type !== 'string')
      continue;
    events.set(event.seq, { hash: event.hash, type: event.type });
    const data = event.data ?? {};
    if (
      event.type === 'remote-landing-start' &&
      typeof data.tree === 'string' &&
      Array.isArray(data.parents)
    ) {
      landings.set(event.seq, {
        hash: event.hash,
        job: typeof event.job === 'string' ? event.job : undefined,
        tree: data.tree,
        parents: data.parents.map(String),
      });
    }
  }
  return { events, landings };
}

/**
 * Verifies one worker's chain as the remote holds it (`ref`, a fetched copy of `refs/snodo/audit/<worker>`):
 * every snapshot commit carries a checkpoint signed by the worker's registered key; the newest snapshot's
 * log recomputes hash by hash and satisfies every earlier snapshot's checkpoint too (so a snapshot that
 * rewrote what an earlier one signed fails); and it holds exactly the events its own checkpoint signs, so
 * nothing unsigned can be pointed at.
 */
export async function verifyWorkerChain(options: {
  readonly clone: string;
  readonly worker: string;
  readonly ref: string;
  readonly registered: { readonly key: KeyObject; readonly keyId: string } | undefined;
}): Promise<VerifiedWorkerChain> {
  const { worker } = options;
  const chainName = `refs/snodo/audit/${worker}`;
  const failures: RemoteAuditFailure[] = [];
  const commits = await readRefCheckpointCommits(options.clone, [options.ref]);
  const checkpoints: SignedCheckpoint[] = [];
  for (const entry of commits) {
    if (entry.checkpoint === undefined) {
      failures.push({
        code: 'E_SIGNATURE',
        worker,
        commit: entry.commit,
        reason: `snapshot ${entry.commit.slice(0, 12)} of ${chainName} is not signed: ${entry.problem ?? 'no checkpoint'}`,
      });
      continue;
    }
    checkpoints.push(entry.checkpoint);
  }
  const newest = checkpoints.at(-1);
  const keyId = newest?.key_id;
  const done = (
    events = 0,
    indexed?: Pick<VerifiedWorkerChain, 'events' | 'landings'>,
  ): VerifiedWorkerChain => ({
    summary: {
      worker,
      ...(keyId ? { keyId } : {}),
      snapshots: commits.length,
      events,
      ok: failures.length === 0,
    },
    failures,
    events: indexed?.events ?? new Map(),
    landings: indexed?.landings ?? new Map(),
  });
  if (options.registered === undefined) {
    failures.push({
      code: 'E_KEY_UNREGISTERED',
      worker,
      reason:
        `${chainName} is signed with key ${keyId ?? '(none)'}, but no key is registered for worker ${worker} on ` +
        `refs/snodo/keys; a worker registers its key when \`snodo worker\` first starts`,
    });
    return done();
  }
  for (const [index, checkpoint] of checkpoints.entries()) {
    const problem = checkCheckpointSignature(checkpoint, [options.registered.key]);
    if (problem !== undefined) {
      failures.push({
        code: 'E_SIGNATURE',
        worker,
        reason: `snapshot ${index + 1} of ${chainName}: ${problem} (registered for ${worker}: ${options.registered.keyId})`,
      });
    }
  }
  if (failures.length > 0 || newest === undefined) return done();

  const shown = await git(['show', `${options.ref}:${SNAPSHOT_LOG_FILE}`], {
    cwd: options.clone,
    allowFailure: true,
    readOnly: true,
  });
  if (shown.exitCode !== 0) {
    failures.push({
      code: 'E_CHAIN_REWRITTEN',
      worker,
      reason: `the newest snapshot of ${chainName} holds no ${SNAPSHOT_LOG_FILE}`,
    });
    return done();
  }
  const directory = await mkdtemp(join(tmpdir(), 'snodo-remote-chain-'));
  try {
    const path = join(directory, SNAPSHOT_LOG_FILE);
    await writeFile(path, shown.stdout);
    const result = await verifyAuditLog(path, { checkpoints, publicKey: options.registered.key });
    if (!result.ok) {
      const failure = result.failure;
      const where = failure?.seq === undefined ? '' : ` at seq ${failure.seq}`;
      failures.push({
        code: failure?.code === 'E_CKPT_SIG' ? 'E_SIGNATURE' : 'E_CHAIN_REWRITTEN',
        worker,
        reason:
          `${chainName} does not verify${where}: ${failure?.code ?? 'E_UNKNOWN'} ${failure?.reason ?? ''}`.trim(),
      });
      return done(result.events);
    }
    if (result.events !== newest.size) {
      failures.push({
        code: 'E_CHAIN_REWRITTEN',
        worker,
        reason: `the newest snapshot of ${chainName} holds ${result.events} events but its signed checkpoint covers ${newest.size}`,
      });
      return done(result.events);
    }
    return done(result.events, indexEvents(shown.stdout));
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
