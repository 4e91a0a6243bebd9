import type { KeyObject } from 'node:crypto';
import { isAbsolute, join, normalize } from 'node:path';
import {
  type AuditLogGenesis,
  type AuditLogHeadRecord,
  checkResetSignature,
  readLogGenesis,
} from '@snodo/audit';
import { archivedAuditLogPath } from './audit-paths.js';

/** The logs a log replaced through signed resets, and what it could not follow. */
export interface AuditLineage {
  /** Each earlier log id with the furthest head a reset recorded for it. */
  readonly records: ReadonlyMap<string, AuditLogHeadRecord>;
  /** Resets that are not honoured (unsigned, signed by another key), in words. */
  readonly problems: readonly string[];
}

/**
 * Follows a log's reset lineage: the genesis's `previous` and `superseded`, then the genesis of each
 * archived log (`.snodo/audit.<id>.log`) for its own reset, and so on. A reset counts only when snodo's
 * own key signed it, so a log written from scratch cannot adopt an old log's anchors by naming it.
 * Reads one line per archived log.
 */
export function readAuditLineage(
  repositoryRoot: string,
  genesis: AuditLogGenesis,
  publicKeys: readonly KeyObject[],
): AuditLineage {
  const records = new Map<string, AuditLogHeadRecord>();
  const problems: string[] = [];
  const visited = new Set<string>([genesis.logId]);
  let current: AuditLogGenesis | undefined = genesis;
  while (current?.previous !== undefined) {
    const problem = checkResetSignature(current.event.data, publicKeys);
    if (problem !== undefined) {
      problems.push(`the reset that started log ${current.logId} is not honoured: ${problem}`);
      break;
    }
    for (const record of [current.previous, ...current.superseded]) {
      const known = records.get(record.log_id);
      if (!visited.has(record.log_id) && (known === undefined || known.size < record.size)) {
        records.set(record.log_id, { log_id: record.log_id, size: record.size, head_hash: record.head_hash });
      }
    }
    const previousId: string = current.previous.log_id;
    if (visited.has(previousId)) break;
    visited.add(previousId);
    const archived = readLogGenesis(archivePathOf(repositoryRoot, current.previous.archived_as, previousId));
    current = archived?.logId === previousId ? archived : undefined;
  }
  return { records, problems };
}

/**
 * Whether an anchor of an earlier log fits what the lineage recorded: no more events than the reset saw,
 * and at exactly that size, the same head. Returns the mismatch in words, or `undefined`.
 */
export function checkLineageFit(
  record: AuditLogHeadRecord,
  anchor: { readonly size: number; readonly head_hash: string },
): string | undefined {
  if (anchor.size > record.size) {
    return `an anchor of earlier log ${record.log_id} covers ${anchor.size} events, the reset recorded only ${record.size}`;
  }
  if (anchor.size === record.size && anchor.head_hash !== record.head_hash) {
    return `an anchor of earlier log ${record.log_id} has another head hash at ${anchor.size} events than the reset recorded`;
  }
  return undefined;
}

/** The archive a reset named, when it is a plain path inside `.snodo/`; else the default name. */
function archivePathOf(repositoryRoot: string, archivedAs: string | undefined, logId: string): string {
  if (archivedAs !== undefined && !isAbsolute(archivedAs)) {
    const relative = normalize(archivedAs);
    if (relative.startsWith('.snodo/') && !relative.includes('..')) return join(repositoryRoot, relative);
  }
  return archivedAuditLogPath(repositoryRoot, logId);
}
