/**
 * Stable failure codes of `verifyAuditLog`. Scripts and the CLI match on them; the wording of `reason`
 * may change, the codes do not.
 *
 * - `E_PARSE`: a line is not a JSON object (or is longer than the verifier reads).
 * - `E_FIELD`: a field is missing, has the wrong type, or is not allowed (a float in `data`, an unknown key).
 * - `E_SEQ`: `seq` is not the previous event's `seq` + 1 (a deleted, inserted or reordered line).
 * - `E_LINK`: `prev` is not the previous event's `hash`.
 * - `E_HASH`: `hash` is not the SHA-256 of the event's canonical JSON (an edited line).
 * - `E_GENESIS`: the first line is not a valid `log-create` event, or a second one appears later.
 * - `E_LOG_ID`: a checkpoint belongs to another log.
 * - `E_TRUNCATED`: a checkpoint covers more events than the log holds (its tail was cut off).
 * - `E_CKPT_SIG`: a checkpoint's signature does not verify with the given public key(s).
 * - `E_CKPT_MISMATCH`: the event a checkpoint anchors has another hash now (the anchored prefix was rewritten).
 * - `E_LOG_MISSING`: the log is gone while anchors (checkpoints) for this repository remain.
 * - `E_LOG_REPLACED`: an anchor names a log id that is neither this log's nor in its reset lineage, or the
 *   file was replaced by another one.
 * - `E_REWRITTEN`: bytes a snapshot or an anchor covered were changed in place.
 */
export type AuditVerifyFailureCode =
  | 'E_PARSE'
  | 'E_FIELD'
  | 'E_SEQ'
  | 'E_LINK'
  | 'E_HASH'
  | 'E_GENESIS'
  | 'E_LOG_ID'
  | 'E_TRUNCATED'
  | 'E_CKPT_SIG'
  | 'E_CKPT_MISMATCH'
  | 'E_LOG_MISSING'
  | 'E_LOG_REPLACED'
  | 'E_REWRITTEN';

/**
 * Stable warning codes. `W_TORN`: a half-written line left by a crash, either already followed by the
 * matching `log-recover` event, or still at the end of the file (the next writer recovers it).
 */
export type AuditVerifyWarningCode = 'W_TORN';

/** The first thing that is wrong with a log; verification stops there. */
export interface AuditVerifyFailure {
  /** Stable code, see `AuditVerifyFailureCode`. */
  readonly code: AuditVerifyFailureCode;
  /** What is wrong, in words, naming the expected and the found value. */
  readonly reason: string;
  /**
   * 1-based line number in the log file. Absent only for `E_CKPT_SIG`, which concerns a checkpoint rather
   * than a line.
   */
  readonly line?: number;
  /**
   * The sequence number the failing line claims, or the one expected at that position when the line has
   * none (unparseable) — the number a user searches for with `snodo audit show`.
   */
  readonly seq?: number;
  /** Byte offset of the failing line's first byte. Absent with `line`. */
  readonly byteOffset?: number;
  /** Index (0-based) of the checkpoint involved, for the `E_CKPT_*`, `E_TRUNCATED` and `E_LOG_ID` codes. */
  readonly checkpoint?: number;
}

/** Something the verifier accepted but a reader should know about. */
export interface AuditVerifyWarning {
  /** Stable code, see `AuditVerifyWarningCode`. */
  readonly code: AuditVerifyWarningCode;
  /** What was found and why it was accepted. */
  readonly reason: string;
  /** 1-based line number of the torn fragment. */
  readonly line: number;
  /** Byte offset of the torn fragment. */
  readonly byteOffset: number;
}

/**
 * What `verifyAuditLog` returns. The CLI prints it (`snodo audit verify`, `--json` as is); `openAuditLog`
 * keeps it as `log.verification`. Counts cover the valid prefix when `ok` is false.
 */
export interface AuditVerifyResult {
  /** `true` when the whole chain (and every given checkpoint) verified. */
  readonly ok: boolean;
  /** Number of valid events read (torn fragments are not events). */
  readonly events: number;
  /** Number of lines read, torn fragments included. */
  readonly lines: number;
  /** The log id from the genesis event, when the genesis was valid. */
  readonly logId?: string;
  /** `seq` of the last valid event. */
  readonly headSeq?: number;
  /** `hash` of the last valid event. */
  readonly headHash?: string;
  /** How many checkpoints were checked against the log (signature, size and head hash). */
  readonly checkpointsVerified: number;
  /** Accepted anomalies (torn lines). */
  readonly warnings: readonly AuditVerifyWarning[];
  /** The first failure; present exactly when `ok` is false. */
  readonly failure?: AuditVerifyFailure;
}
