import { createPublicKey, type KeyObject } from 'node:crypto';
import { keyIdOf } from '@snodo/audit';
import { git } from '../git/index.js';
import type { RemoteAuditFailure } from './remote-audit-verification.js';

/** The keys registered on a fetched copy of `refs/snodo/keys`, and what is wrong with the registry. */
export interface WorkerKeyRegistry {
  readonly keys: ReadonlyMap<string, { readonly key: KeyObject; readonly keyId: string }>;
  readonly failures: readonly RemoteAuditFailure[];
}

/**
 * Reads the registered worker keys (`<worker>.pub` in the tip's tree) and checks the registry's history is
 * only ever added to: a commit that changes or removes a key file (`M`, `D` in `git log --raw`) would let
 * a chain be re-signed with a new key, so it fails as `E_KEYS_REWRITTEN`. Absent registry: no keys.
 */
export async function readWorkerKeyRegistry(
  clone: string,
  ref: string | undefined,
): Promise<WorkerKeyRegistry> {
  const keys = new Map<string, { key: KeyObject; keyId: string }>();
  const failures: RemoteAuditFailure[] = [];
  if (ref === undefined) return { keys, failures };
  const history = await git(
    ['log', '--reverse', '--raw', '--no-renames', '--root', '--format=%x1e%H', ref, '--'],
    {
      cwd: clone,
      readOnly: true,
    },
  );
  for (const record of history.stdout.split('\x1e')) {
    const [commit = '', ...lines] = record.trim().split('\n');
    for (const line of lines) {
      const match = /^:\d+ \d+ [0-9a-f]+ [0-9a-f]+ ([A-Z])\d*\t(.+)$/.exec(line);
      if (match === null || match[1] === 'A') continue;
      failures.push({
        code: 'E_KEYS_REWRITTEN',
        commit,
        worker: (match[2] as string).replace(/\.pub$/, ''),
        reason: `commit ${commit.slice(0, 12)} of refs/snodo/keys ${match[1] === 'D' ? 'removes' : 'changes'} ${match[2]}: registered keys are only ever added`,
      });
    }
  }
  const listing = await git(['ls-tree', '-z', '--name-only', ref], { cwd: clone, readOnly: true });
  for (const file of listing.stdout.split('\0')) {
    if (!file.endsWith('.pub')) continue;
    const worker = file.slice(0, -'.pub'.length);
    const pem = await git(['show', `${ref}:${file}`], { cwd: clone, readOnly: true });
    try {
      const key = createPublicKey(pem.stdout);
      keys.set(worker, { key, keyId: keyIdOf(key) });
    } catch {
      failures.push({
        code: 'E_KEYS_REWRITTEN',
        worker,
        reason: `refs/snodo/keys:${file} is not a PEM public key`,
      });
    }
  }
  return { keys, failures };
}
