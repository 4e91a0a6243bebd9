import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { git } from '../git/index.js';
import { AUDIT_CHECKPOINT_REF } from './audit-paths.js';
import type { StoreRepair } from './check-audit-anchors.js';
import type { AuditAnchorSnapshot } from './snapshot-audit-anchors.js';

const zeroCommit = '0000000000000000000000000000000000000000';

/**
 * Writes back (or removes, when they did not exist and hold nothing valid) the store files and `refs/snodo/audit` that `checkAuditAnchors` found changed. Store files
 * are replaced atomically (temporary file + rename, mode 0600); the ref moves by compare-and-swap against
 * the value seen during the check, so a checkpoint another job added since is never thrown away blindly.
 */
export async function restoreAuditAnchors(
  snapshot: AuditAnchorSnapshot,
  stores: readonly StoreRepair[],
  ref: { commit: string; current: string | undefined } | undefined,
): Promise<void> {
  for (const repair of stores) {
    if (repair.bytes === undefined) {
      rmSync(repair.path, { force: true });
      continue;
    }
    mkdirSync(dirname(repair.path), { recursive: true, mode: 0o700 });
    const temporary = `${repair.path}.${process.pid}.restore`;
    writeFileSync(temporary, repair.bytes, { mode: 0o600 });
    renameSync(temporary, repair.path);
  }
  if (ref !== undefined) {
    await git(['update-ref', AUDIT_CHECKPOINT_REF, ref.commit, ref.current ?? zeroCommit], {
      cwd: snapshot.repositoryRoot,
    });
  }
}
