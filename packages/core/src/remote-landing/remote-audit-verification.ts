// What `snodo audit verify --remote` found: plain data, printed by the CLI and returned as is by `--json`.

/**
 * Stable codes of a multi-worker verification; scripts match on them, the wording of `reason` may change.
 *
 * - `E_CHAIN_MISSING`: a landing names a worker whose chain (`refs/snodo/audit/<worker>`) is not on the
 *   remote, or a chain verified before is gone.
 * - `E_CHAIN_REWRITTEN`: a chain does not verify (an edited, removed or reordered event, a snapshot that
 *   no longer contains what an earlier one signed, events beyond its signed checkpoint), or it no longer
 *   contains the chain verified last time.
 * - `E_SIGNATURE`: a snapshot is unsigned, or its signature does not verify with the worker's registered key.
 * - `E_KEY_UNREGISTERED`: a chain's worker has no key on `refs/snodo/keys`.
 * - `E_KEYS_REWRITTEN`: a registered key was changed or removed, or the registry lost what was verified before.
 * - `E_LANDING_UNANCHORED`: a commit on the base's first-parent history carries a `Snodo-Audit` trailer that
 *   names no signed `remote-landing-start` event recording that commit's tree and parents.
 */
export type RemoteAuditFailureCode =
  | 'E_CHAIN_MISSING'
  | 'E_CHAIN_REWRITTEN'
  | 'E_SIGNATURE'
  | 'E_KEY_UNREGISTERED'
  | 'E_KEYS_REWRITTEN'
  | 'E_LANDING_UNANCHORED';

/** One thing that is wrong, with the worker and commit it concerns. */
export interface RemoteAuditFailure {
  readonly code: RemoteAuditFailureCode;
  readonly reason: string;
  readonly worker?: string;
  readonly commit?: string;
}

/** One worker's chain as verified. */
export interface RemoteChainSummary {
  readonly worker: string;
  /** The key its snapshots are signed with, when they name one. */
  readonly keyId?: string;
  /** Snapshot commits on `refs/snodo/audit/<worker>`. */
  readonly snapshots: number;
  /** Events in the newest snapshot's log. */
  readonly events: number;
  readonly ok: boolean;
}

/** The whole verification. `ok` exactly when `failures` is empty. */
export interface RemoteAuditVerification {
  readonly ok: boolean;
  readonly remote: string;
  /** The base branch whose first-parent history was checked. */
  readonly base: string;
  readonly baseCommit: string;
  readonly chains: readonly RemoteChainSummary[];
  /** Registered workers and their key ids. */
  readonly keys: readonly { readonly worker: string; readonly keyId: string }[];
  /** Commits with a `Snodo-Audit` trailer on the base's first-parent history, and how many are anchored. */
  readonly landings: { readonly checked: number; readonly anchored: number };
  readonly failures: readonly RemoteAuditFailure[];
}
