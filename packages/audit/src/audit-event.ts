/** A JSON value an audit event can carry: no floats, no `undefined`, plain objects and arrays only. */
export type AuditValue = string | number | boolean | null | readonly AuditValue[] | AuditData;

/** The `data` object of an audit event. */
export interface AuditData {
  readonly [key: string]: AuditValue;
}

/**
 * One line of `.snodo/audit.log`, exactly as written and as `verifyAuditLog` checks it. Written by
 * `AuditLog.append`, read by `readAuditEvents`, exported by `exportAttestation`.
 */
export interface AuditEvent {
  /** Format version; always 1. A future format gets a new number and a new hash domain tag. */
  readonly v: 1;
  /** Position in the chain: 0 for the genesis event, then +1 per event, with no gaps. */
  readonly seq: number;
  /** When the event was appended, RFC 3339 in UTC (`2025-01-31T12:00:00.000Z`). */
  readonly ts: string;
  /** What happened, noun-then-verb in kebab-case (`job-start`, `gate-verdict`); core defines the names. */
  readonly type: string;
  /** The job the event belongs to (`j_…`), absent for events about the log or the whole repository. */
  readonly job?: string;
  /** Who caused it: `snodo`, a coder id, `human:<name>` for an approval. */
  readonly actor: string;
  /** The facts, redacted before hashing: integers, strings, booleans, null, arrays and objects. */
  readonly data: AuditData;
  /** `hash` of the previous event; 64 zeros for the genesis event. */
  readonly prev: string;
  /** Lowercase hex SHA-256 of `snodo/audit/v1\0` + the RFC 8785 canonical JSON of this event without `hash`. */
  readonly hash: string;
}

/** An event without its `hash`: the exact object the hash is computed over. */
export type AuditEventBody = Omit<AuditEvent, 'hash'>;

/** What a caller passes to `AuditLog.append`; the log fills in `v`, `seq`, `ts`, `prev` and `hash`. */
export interface AuditEventInput {
  /** Event type, kebab-case noun-then-verb (`job-start`). */
  readonly type: string;
  /** Who caused it; defaults to the log's `actor` option (`snodo`). */
  readonly actor?: string;
  /** The job id, for job events. */
  readonly job?: string;
  /**
   * The facts. Checked and copied: numbers must be safe integers, values plain JSON; `undefined`
   * properties are dropped; secrets are masked.
   */
  readonly data?: { readonly [key: string]: unknown };
}

/** The `prev` of the genesis event. */
export const GENESIS_PREV = '0'.repeat(64);
/** The genesis event type. */
export const LOG_CREATE_TYPE = 'log-create';
/** The type of the event that follows a torn line left by a crash. */
export const LOG_RECOVER_TYPE = 'log-recover';
