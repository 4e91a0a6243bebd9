import { existsSync, readFileSync } from 'node:fs';
import {
  type AuditLogGrowthFailureCode,
  checkCheckpointSignature,
  parseCheckpoint,
  type SignedCheckpoint,
  verifyAuditLogGrowth,
} from '@snodo/audit';
import { isAncestor } from '../git/index.js';
import { AUDIT_CHECKPOINT_REF, auditLogPath } from './audit-paths.js';
import { readRefCheckpointCommits } from './checkpoint-ref.js';
import { restoreAuditAnchors } from './restore-audit-anchors.js';
import { type AuditAnchorSnapshot, snodoRefs, watchedStoreFiles } from './snapshot-audit-anchors.js';

/** Stable codes of what the audit side of the tamper guard finds. */
export type AuditTamperCode =
  | 'audit-log-changed'
  | 'checkpoint-store-deleted'
  | 'checkpoint-store-rewritten'
  | 'checkpoint-store-forged'
  | 'audit-ref-deleted'
  | 'audit-ref-rewound'
  | 'audit-ref-forged'
  | 'snodo-ref-changed';

/** One change to the audit anchors that no snodo process makes. */
export interface AuditTamperFinding {
  readonly code: AuditTamperCode;
  /** The file or ref concerned. */
  readonly subject: string;
  /** What changed, in words a user reads ("the audit log lost 12 events (size 40 → 28)"). */
  readonly message: string;
  /** The same split for the repository guard's findings: what it is ("the audit log")… */
  readonly what: string;
  /** …and what happened to it ("lost 12 events (size 40 → 28)"). */
  readonly change: string;
  /** Whether `restore()` puts it back. */
  readonly restorable: boolean;
  /** For `audit-log-changed`: the growth check's code (`E_TRUNCATED`, `E_REWRITTEN`…). */
  readonly logCode?: AuditLogGrowthFailureCode;
}

/** What `checkAuditAnchors` returns. */
export interface AuditAnchorCheck {
  readonly findings: readonly AuditTamperFinding[];
  /**
   * Puts back what can be put back — deleted or cut store files from the snapshot's bytes (plus valid lines
   * added since), `refs/snodo/audit` to its old commit when deleted or moved to a non-descendant — so that
   * after a halted job `snodo audit verify` fails loudly instead of saying intact.
   */
  restore(): Promise<void>;
}

/** What is known of the log's heads since the snapshot: seq → hash, and the current size. */
interface KnownHeads {
  readonly fromSeq: number;
  readonly hashes: ReadonlyMap<number, string>;
  readonly size: number;
}

/**
 * Compares the audit anchors with a snapshot. Expected changes are not findings: other jobs append valid
 * events to the log, valid checkpoints (this machine's key, this log, a head the log has) to the store and
 * fast-forward commits holding such checkpoints to `refs/snodo/audit`. Anything else is: a log that did not
 * only grow, a store file deleted, cut, rewritten or given a line snodo did not sign, `refs/snodo/audit`
 * deleted, rewound or given a commit without a valid checkpoint, and any other `refs/snodo/*` ref that
 * appeared, vanished or moved (`refs/snodo/remotes/**` excepted: `snodo audit verify` writes those).
 */
export async function checkAuditAnchors(snapshot: AuditAnchorSnapshot): Promise<AuditAnchorCheck> {
  const findings: AuditTamperFinding[] = [];
  // NOTE: the anchors are read before the log. snodo writes a checkpoint only after the events it covers,
  // so a log read after them holds every event a genuine checkpoint seen here names, however many jobs
  // append and anchor meanwhile; read the other way round, another job's checkpoint looked ahead of the log.
  const storeNow = readStoreFiles(snapshot);
  const refsNow = await snodoRefs(snapshot.repositoryRoot);
  const logPath = auditLogPath(snapshot.repositoryRoot);
  const growth = await verifyAuditLogGrowth(logPath, snapshot.log);
  let heads: KnownHeads | undefined;
  if (growth.ok) {
    const hashes = new Map<number, string>();
    if (snapshot.log.head !== undefined) hashes.set(snapshot.log.head.seq, snapshot.log.head.hash);
    for (const event of growth.appended) hashes.set(event.seq, event.hash);
    const last = growth.appended.at(-1) ?? snapshot.log.head;
    heads = { fromSeq: snapshot.log.head?.seq ?? 0, hashes, size: last === undefined ? 0 : last.seq + 1 };
  } else {
    const prefix = 'the audit log ';
    findings.push({
      code: 'audit-log-changed',
      subject: logPath,
      message: growth.reason,
      what: 'the audit log',
      change: growth.reason.startsWith(prefix) ? growth.reason.slice(prefix.length) : growth.reason,
      restorable: false,
      logCode: growth.code,
    });
  }
  const validate = (checkpoint: SignedCheckpoint): string | undefined =>
    checkNewCheckpoint(snapshot, heads, checkpoint);
  const storeRepairs = checkStoreFiles(snapshot, storeNow, validate, findings);
  const refRepair = await checkRefs(snapshot, refsNow, validate, findings);
  return {
    findings,
    restore: () => restoreAuditAnchors(snapshot, storeRepairs, refRepair),
  };
}

/** Why a checkpoint added since the snapshot is not one snodo wrote, or `undefined` when it is. */
function checkNewCheckpoint(
  snapshot: AuditAnchorSnapshot,
  heads: KnownHeads | undefined,
  checkpoint: SignedCheckpoint,
): string | undefined {
  if (snapshot.publicKey === undefined) return 'there was no signing key when the snapshot was taken';
  const badSignature = checkCheckpointSignature(checkpoint, [snapshot.publicKey]);
  if (badSignature !== undefined) return badSignature;
  if (checkpoint.log_id !== snapshot.log.logId) {
    return `it is for log ${checkpoint.log_id}, this repository's log is ${snapshot.log.logId ?? 'missing'}`;
  }
  if (heads === undefined) return undefined;
  if (checkpoint.size > heads.size) return `it covers ${checkpoint.size} events, the log holds ${heads.size}`;
  const hash = heads.hashes.get(checkpoint.size - 1);
  if (checkpoint.size - 1 >= heads.fromSeq && hash !== undefined && hash !== checkpoint.head_hash) {
    return `it anchors seq ${checkpoint.size - 1} at another hash than the log has`;
  }
  return undefined;
}

/** A store file to write back (the snapshot's bytes, then the valid lines found after them) or remove. */
export interface StoreRepair {
  readonly path: string;
  /** `undefined`: the file did not exist and holds nothing valid, so it is removed. */
  readonly bytes: Buffer | undefined;
}

/** The bytes of every store file the snapshot knows or watches, as they are now (`undefined`: gone). */
function readStoreFiles(snapshot: AuditAnchorSnapshot): Map<string, Buffer | undefined> {
  const paths = new Set([...snapshot.storeFiles.keys(), ...watchedStoreFiles(snapshot)]);
  return new Map([...paths].map((path) => [path, existsSync(path) ? readFileSync(path) : undefined]));
}

function checkStoreFiles(
  snapshot: AuditAnchorSnapshot,
  storeNow: ReadonlyMap<string, Buffer | undefined>,
  validate: (checkpoint: SignedCheckpoint) => string | undefined,
  findings: AuditTamperFinding[],
): StoreRepair[] {
  const repairs: StoreRepair[] = [];
  for (const [path, now] of storeNow) {
    const before = snapshot.storeFiles.get(path) ?? Buffer.alloc(0);
    if (now === undefined) {
      if (before.length > 0) {
        findings.push({
          code: 'checkpoint-store-deleted',
          subject: path,
          message: `checkpoint store file ${path} was deleted`,
          what: 'the audit checkpoint store',
          change: 'file deleted:',
          restorable: true,
        });
        repairs.push({ path, bytes: before });
      }
      continue;
    }
    const kept = now.length >= before.length && now.subarray(0, before.length).equals(before);
    if (!kept) {
      findings.push({
        code: 'checkpoint-store-rewritten',
        subject: path,
        message: `checkpoint store file ${path} was ${cutOrRewritten(before, now)}`,
        what: 'the audit checkpoint store',
        change: `file ${cutOrRewritten(before, now)}:`,
        restorable: true,
      });
    }
    const added = kept ? now.subarray(before.length) : now;
    const valid: string[] = [];
    const lines = added.toString('utf8').split('\n');
    lines.pop(); // a line still being written (no newline yet) is judged next time
    lines.forEach((line, index) => {
      if (!kept && before.includes(Buffer.from(`${line}\n`))) return;
      let problem: string | undefined;
      try {
        problem = validate(parseCheckpoint(line, `${path}:${index + 1}`));
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      if (problem === undefined) valid.push(`${line}\n`);
      else {
        findings.push({
          code: 'checkpoint-store-forged',
          subject: path,
          message: `checkpoint store file ${path} gained a line snodo did not write: ${problem}`,
          what: 'the audit checkpoint store',
          change: `gained a line snodo did not write (${problem}) in`,
          restorable: true,
        });
      }
    });
    if (!kept || valid.length !== lines.length) {
      const bytes = Buffer.concat([before, Buffer.from(valid.join(''), 'utf8')]);
      repairs.push({ path, bytes: bytes.length === 0 && !snapshot.storeFiles.has(path) ? undefined : bytes });
    }
  }
  return repairs;
}

async function checkRefs(
  snapshot: AuditAnchorSnapshot,
  now: ReadonlyMap<string, string>,
  validate: (checkpoint: SignedCheckpoint) => string | undefined,
  findings: AuditTamperFinding[],
): Promise<{ commit: string; current: string | undefined } | undefined> {
  let repair: { commit: string; current: string | undefined } | undefined;
  const before = snapshot.refs.get(AUDIT_CHECKPOINT_REF);
  const after = now.get(AUDIT_CHECKPOINT_REF);
  if (before !== undefined && after === undefined) {
    findings.push({
      code: 'audit-ref-deleted',
      subject: AUDIT_CHECKPOINT_REF,
      message: `${AUDIT_CHECKPOINT_REF} was deleted (it pointed at ${before.slice(0, 12)})`,
      what: AUDIT_CHECKPOINT_REF,
      change: `deleted (it pointed at ${before.slice(0, 12)})`,
      restorable: true,
    });
    repair = { commit: before, current: undefined };
  } else if (after !== undefined && after !== before) {
    if (
      before !== undefined &&
      !(await isAncestor(snapshot.repositoryRoot, before, after).catch(() => false))
    ) {
      findings.push({
        code: 'audit-ref-rewound',
        subject: AUDIT_CHECKPOINT_REF,
        message: `${AUDIT_CHECKPOINT_REF} was moved from ${before.slice(0, 12)} to ${after.slice(0, 12)}, which does not contain it`,
        what: AUDIT_CHECKPOINT_REF,
        change: `moved from ${before.slice(0, 12)} to ${after.slice(0, 12)}, which does not contain it`,
        restorable: true,
      });
      repair = { commit: before, current: after };
    } else {
      const range = before === undefined ? [after] : [`${before}..${after}`];
      for (const entry of await readRefCheckpointCommits(snapshot.repositoryRoot, range)) {
        const problem =
          entry.problem ?? (entry.checkpoint === undefined ? 'no checkpoint' : validate(entry.checkpoint));
        if (problem === undefined) continue;
        findings.push({
          code: 'audit-ref-forged',
          subject: AUDIT_CHECKPOINT_REF,
          message: `${AUDIT_CHECKPOINT_REF} gained commit ${entry.commit.slice(0, 12)} that snodo did not write: ${problem}`,
          what: AUDIT_CHECKPOINT_REF,
          change: `gained commit ${entry.commit.slice(0, 12)} that snodo did not write (${problem})`,
          restorable: before !== undefined,
        });
        if (before !== undefined) repair = { commit: before, current: after };
      }
    }
  }
  for (const name of new Set([...snapshot.refs.keys(), ...now.keys()])) {
    if (name === AUDIT_CHECKPOINT_REF || snapshot.refs.get(name) === now.get(name)) continue;
    const was = snapshot.refs.get(name);
    const is = now.get(name);
    const change =
      was === undefined
        ? `appeared (at ${is?.slice(0, 12)})`
        : is === undefined
          ? `vanished (it pointed at ${was.slice(0, 12)})`
          : `moved from ${was.slice(0, 12)} to ${is.slice(0, 12)}`;
    findings.push({
      code: 'snodo-ref-changed',
      subject: name,
      message: `${name} ${change}`,
      what: name,
      change,
      restorable: false,
    });
  }
  return repair;
}

function cutOrRewritten(before: Buffer, now: Buffer): string {
  return now.length < before.length ? `cut from ${before.length} to ${now.length} bytes` : 'rewritten';
}
