import type { BigIntStats } from 'node:fs';
import type { AuditLogSnapshot } from './snapshot-audit-log.js';

/**
 * Whether the log may have been written since `snapshot` other than by appending lines, judged from its
 * size and times alone: what decides if the bytes between the snapshot's first line and its last bytes must
 * be read again. Appending makes a file longer and stamps both its modification and its change time with
 * the same instant; no user process can set the change time, though anyone can set the modification time.
 *
 * - Not written at all (same size and times): only when the snapshot could rely on its change time, that is
 *   when a write right after it could not have shared it (`settled`).
 * - Longer, with equal modification and change times: the last writes were appends.
 * - Anything else — written without growing, or a modification time set apart from the change time — is
 *   read.
 */
export function mayHaveBeenRewritten(snapshot: AuditLogSnapshot, now: BigIntStats): boolean {
  const size = Number(now.size);
  const changed = now.ctimeNs.toString();
  const modified = now.mtimeNs.toString();
  if (size === snapshot.size && changed === snapshot.changed && modified === snapshot.modified) {
    return !snapshot.settled;
  }
  return !(size > snapshot.size && modified === changed);
}
