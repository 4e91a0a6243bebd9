import { createPublicKey } from 'node:crypto';
import { keyIdOf } from '@snodo/audit';
import { loadOrCreateSigningKey } from '../audit-trail/signing-key-store.js';
import { RemoteLandingInvalidError, RemoteTransferFailedError, WorkerKeyConflictError } from '../errors.js';
import {
  fallbackIdentity,
  findRepositoryRoot,
  git,
  identityEnvironment,
  resolveCommit,
} from '../git/index.js';
import { landingCopyPrefix, refComponentProblem, WORKER_KEYS_REF } from './remote-landing-refs.js';
import { fetchFromRemote, pushAtomically, requireRemote } from './remote-transfer.js';

/** What `registerWorkerKey` is given: the worker's clone, the shared remote, its id and `$SNODO_HOME`. */
export interface RegisterWorkerKeyRequest {
  readonly clone: string;
  readonly remote: string;
  readonly workerId: string;
  /** Holds the worker's signing key (created on first use, like a run's). */
  readonly snodoHome: string;
}

/** The worker's key on the remote: newly added, or there already (the same key). */
export interface RegisterWorkerKeyResult {
  readonly status: 'registered' | 'already-registered';
  readonly workerId: string;
  readonly keyId: string;
  /** The tip of `refs/snodo/keys` on the remote that holds the key. */
  readonly commit: string;
}

/** The file of a worker's public key in the tree of `refs/snodo/keys`. */
export function workerKeyFile(workerId: string): string {
  return `${workerId}.pub`;
}

const maxAttempts = 5;

/**
 * Registers this worker's public key on the shared remote (`snodo worker` calls it on first start): a new
 * commit on `refs/snodo/keys` whose tree adds `<worker>.pub`, pushed under a lease so two workers
 * registering at once both end up in it. Keys are registered on a ref of their own rather than committed
 * to `.snodo/keys/` on the base: registering then never races a landing for the base, the base's history
 * holds only the project's commits and landings, and verify can check the ref is only ever added to.
 * A worker id registered with another key is refused (`WorkerKeyConflictError`): replacing the key would
 * orphan every checkpoint that worker signed.
 */
export async function registerWorkerKey(request: RegisterWorkerKeyRequest): Promise<RegisterWorkerKeyResult> {
  const problem = refComponentProblem(request.workerId);
  if (problem !== undefined) {
    throw new RemoteLandingInvalidError({ what: 'The worker id', value: request.workerId, problem });
  }
  await requireRemote(request.clone, request.remote);
  const clone = await findRepositoryRoot(request.clone);
  const key = loadOrCreateSigningKey(request.snodoHome);
  const pem = key.publicKey.export({ format: 'pem', type: 'spki' }).toString();
  const file = workerKeyFile(request.workerId);
  const copy = `${landingCopyPrefix(request.remote)}keys`;
  let lastDetail = '';
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    await fetchFromRemote(clone, request.remote, [`+${WORKER_KEYS_REF}*:${copy}*`], { prune: true });
    const seen = await resolveCommit(clone, copy);
    if (seen !== undefined) {
      const registered = await git(['show', `${seen}:${file}`], {
        cwd: clone,
        allowFailure: true,
        readOnly: true,
      });
      if (registered.exitCode === 0) {
        const registeredKeyId = keyIdOf(createPublicKey(registered.stdout));
        if (registeredKeyId !== key.keyId) {
          throw new WorkerKeyConflictError({
            workerId: request.workerId,
            remote: request.remote,
            registeredKeyId,
            keyId: key.keyId,
          });
        }
        return { status: 'already-registered', workerId: request.workerId, keyId: key.keyId, commit: seen };
      }
    }
    const entries =
      seen === undefined ? '' : (await git(['ls-tree', '-z', seen], { cwd: clone, readOnly: true })).stdout;
    const blob = (await git(['hash-object', '-w', '--stdin'], { cwd: clone, input: pem })).stdout.trim();
    const tree = (
      await git(['mktree', '-z'], { cwd: clone, input: `${entries}100644 blob ${blob}\t${file}\0` })
    ).stdout.trim();
    const commit = (
      await git(['commit-tree', ...(seen === undefined ? [] : ['-p', seen]), '-F', '-', tree], {
        cwd: clone,
        env: identityEnvironment(fallbackIdentity),
        input: `snodo: register worker ${request.workerId} (key ${key.keyId})\n`,
      })
    ).stdout.trim();
    const pushed = await pushAtomically(clone, request.remote, [
      { source: commit, destination: WORKER_KEYS_REF, expected: seen ?? null },
    ]);
    if (pushed.status === 'pushed') {
      await git(['update-ref', copy, commit], { cwd: clone, allowFailure: true });
      return { status: 'registered', workerId: request.workerId, keyId: key.keyId, commit };
    }
    if (pushed.status === 'failed') {
      throw new RemoteTransferFailedError({
        remote: request.remote,
        operation: 'push to',
        detail: pushed.detail,
      });
    }
    lastDetail = pushed.detail;
  }
  throw new RemoteTransferFailedError({
    remote: request.remote,
    operation: 'register the key on',
    detail: `${WORKER_KEYS_REF} kept moving (${maxAttempts} pushes refused; last: ${lastDetail})`,
  });
}
