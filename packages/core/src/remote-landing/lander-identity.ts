import { createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { keyIdOf, parseCheckpoint } from '@snodo/audit';
import { git } from '../git/index.js';
import { SNAPSHOT_CHECKPOINT_FILE } from './chain-snapshot.js';

/**
 * Why this clone and key may not land as `workerId`, or `undefined` when they may. A worker id names one
 * chain signed by one key, so two things are refused before anything is pushed, since either would make
 * every later `snodo audit verify --remote` fail:
 *
 * - the key registered for the worker on `refs/snodo/keys` is another key (another machine, or a new
 *   `$SNODO_HOME`, using this id);
 * - the worker's chain on the remote is not a prefix of this clone's log (another log id, or an event it
 *   signed that this log does not hold: a re-cloned worker, a reset log).
 */
export async function landerIdentityProblem(options: {
  readonly clone: string;
  readonly workerId: string;
  readonly keyId: string;
  readonly logId: string;
  readonly logPath: string;
  /** The fetched copy of `refs/snodo/keys`, when the remote has one. */
  readonly keysTip: string | undefined;
  /** The fetched copy of `refs/snodo/audit/<worker>`, when the remote has one. */
  readonly chainTip: string | undefined;
}): Promise<string | undefined> {
  const { clone, workerId } = options;
  if (options.keysTip !== undefined) {
    const registered = await git(['show', `${options.keysTip}:${workerId}.pub`], {
      cwd: clone,
      allowFailure: true,
      readOnly: true,
    });
    if (registered.exitCode === 0) {
      const registeredKeyId = keyIdOf(createPublicKey(registered.stdout));
      if (registeredKeyId !== options.keyId) {
        return (
          `worker ${workerId} is registered with key ${registeredKeyId}, but this lander signs with ${options.keyId}; ` +
          'land with the SNODO_HOME that holds the registered key, or under another worker id'
        );
      }
    }
  }
  if (options.chainTip === undefined) return undefined;
  const shown = await git(['show', `${options.chainTip}:${SNAPSHOT_CHECKPOINT_FILE}`], {
    cwd: clone,
    allowFailure: true,
    readOnly: true,
  });
  if (shown.exitCode !== 0) return `the newest snapshot of refs/snodo/audit/${workerId} holds no checkpoint`;
  const remoteHead = parseCheckpoint(shown.stdout.trim(), `refs/snodo/audit/${workerId}`);
  if (remoteHead.log_id !== options.logId) {
    return (
      `refs/snodo/audit/${workerId} on the remote continues log ${remoteHead.log_id}, but this clone's log is ` +
      `${options.logId}; a worker id names one chain, so land from the clone that holds it or under a new worker id`
    );
  }
  const wanted = remoteHead.size - 1;
  for (const line of (await readFile(options.logPath, 'utf8')).split('\n')) {
    let event: { seq?: unknown; hash?: unknown };
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (event.seq !== wanted) continue;
    if (event.hash === remoteHead.head_hash) return undefined;
    break;
  }
  return (
    `this clone's log does not hold event ${wanted} with the hash refs/snodo/audit/${workerId} signed on the ` +
    'remote: the chain there is not a prefix of this log'
  );
}
