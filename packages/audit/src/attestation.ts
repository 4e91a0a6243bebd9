import type { KeyObject } from 'node:crypto';
import type { AuditEvent } from './audit-event.js';
import { canonicalJson } from './canonical-json.js';
import { type DsseEnvelope, openEnvelope, signEnvelope } from './dsse.js';
import { AuditOptionsError } from './errors.js';
import { hashEvent } from './event-hash.js';
import { checkEventShape, isShapeProblem } from './event-shape.js';
import { loadPublicKey, type SigningKey } from './signing-key.js';

/** The in-toto Statement v1 type URI. */
export const IN_TOTO_STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
/** The DSSE payload type of in-toto statements. */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
/** Predicate type of snodo's job attestations, used when the caller names none. */
export const SNODO_JOB_PREDICATE_TYPE = 'https://snodo.dev/attestation/job/v1';

/** An in-toto resource descriptor: what the statement is about. */
export interface AttestationSubject {
  /** A name for the artifact (`main`, `task-branch`). */
  readonly name: string;
  /** Its digests by algorithm (`{ gitCommit: '…' }`, `{ sha256: '…' }`). */
  readonly digest: { readonly [algorithm: string]: string };
}

/** An in-toto Statement v1: typed claims (`predicate`) about artifacts named by digest (`subject`). */
export interface InTotoStatement {
  /** Always `https://in-toto.io/Statement/v1`. */
  readonly _type: typeof IN_TOTO_STATEMENT_TYPE;
  /** The artifacts the claims are about; a verifier matches their digests against what it holds. */
  readonly subject: readonly AttestationSubject[];
  /** URI naming the predicate's schema (`SNODO_JOB_PREDICATE_TYPE` for snodo jobs). */
  readonly predicateType: string;
  /** The claims: the caller's facts plus `audit: { log_id?, first_seq, last_seq, events }`. */
  readonly predicate: { readonly [key: string]: unknown };
}

/** Options of `exportAttestation`. */
export interface ExportAttestationOptions {
  /** The audit events the statement covers (e.g. one job's), embedded under `predicate.audit.events`. */
  readonly events: readonly AuditEvent[];
  /** The artifacts (merge commit, task branch tip). At least one. */
  readonly subject: readonly AttestationSubject[];
  /** Predicate type URI; default `SNODO_JOB_PREDICATE_TYPE`. */
  readonly predicateType?: string;
  /** The caller's facts (task digest, coder, models, verdicts, diff digest); `audit` is added. */
  readonly predicate?: { readonly [key: string]: unknown };
  /** The log id the events come from, recorded beside them. */
  readonly logId?: string;
  /** The signing key (the same ed25519 key that signs checkpoints). */
  readonly key: SigningKey;
}

/**
 * `snodo audit export --job <id>`: an in-toto Statement v1 over a set of audit events, signed into a DSSE
 * envelope. The events are embedded (they are already redacted) with their hashes, so a verifier can
 * match them against the log; the statement is self-attested (SLSA L1-grade): it proves who signed, not
 * that the signer was honest.
 */
export function exportAttestation(options: ExportAttestationOptions): DsseEnvelope {
  if (options.subject.length === 0) {
    throw new AuditOptionsError({
      option: 'subject',
      problem: 'an in-toto statement needs at least one subject',
      fix: 'Name the merge commit: [{ name: "main", digest: { gitCommit: "<sha>" } }].',
    });
  }
  if (options.events.length === 0) {
    throw new AuditOptionsError({
      option: 'events',
      problem: 'no events were given',
      fix: "Pass the job's events.",
    });
  }
  for (const [index, event] of options.events.entries()) {
    const problem = eventProblem(event);
    if (problem !== undefined) {
      throw new AuditOptionsError({
        option: `events[${index}]`,
        problem,
        fix: 'Pass events as read from the log.',
      });
    }
  }
  const events = [...options.events].sort((left, right) => left.seq - right.seq);
  const statement: InTotoStatement = {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: options.subject,
    predicateType: options.predicateType ?? SNODO_JOB_PREDICATE_TYPE,
    predicate: {
      ...options.predicate,
      audit: {
        ...(options.logId === undefined ? {} : { log_id: options.logId }),
        first_seq: events[0]!.seq,
        last_seq: events[events.length - 1]!.seq,
        events,
      },
    },
  };
  const payload = Buffer.from(canonicalJson(statement), 'utf8');
  return signEnvelope(IN_TOTO_PAYLOAD_TYPE, payload, options.key);
}

/** The outcome of `verifyAttestation`. */
export type AttestationVerification =
  | { readonly ok: true; readonly statement: InTotoStatement; readonly keyId: string }
  | { readonly ok: false; readonly reason: string };

/**
 * Verifies a DSSE envelope from `exportAttestation`: a signature by one of the given public key(s) over
 * the PAE, the in-toto payload type, a Statement v1 with subjects, and — when audit events are embedded —
 * that each event's hash still matches its content.
 */
export function verifyAttestation(
  envelope: unknown,
  publicKey: KeyObject | string | readonly (KeyObject | string)[],
): AttestationVerification {
  const sources = (Array.isArray(publicKey) ? publicKey : [publicKey]) as readonly (KeyObject | string)[];
  const opened = openEnvelope(
    envelope,
    sources.map((source) => loadPublicKey(source)),
  );
  if (!opened.ok) return opened;
  const payloadType = (envelope as { payloadType: string }).payloadType;
  if (payloadType !== IN_TOTO_PAYLOAD_TYPE) {
    return { ok: false, reason: `payloadType is ${payloadType}, expected ${IN_TOTO_PAYLOAD_TYPE}` };
  }
  let statement: Record<string, unknown>;
  try {
    statement = JSON.parse(opened.payload.toString('utf8')) as Record<string, unknown>;
  } catch {
    return { ok: false, reason: 'the payload is not JSON' };
  }
  if (statement === null || typeof statement !== 'object' || statement._type !== IN_TOTO_STATEMENT_TYPE) {
    return {
      ok: false,
      reason: `the payload is not an in-toto Statement v1 (_type ${IN_TOTO_STATEMENT_TYPE})`,
    };
  }
  const subject = statement.subject;
  if (!Array.isArray(subject) || subject.length === 0 || !subject.every(isSubject)) {
    return { ok: false, reason: 'the statement has no valid subject' };
  }
  if (typeof statement.predicateType !== 'string')
    return { ok: false, reason: 'the statement has no predicateType' };
  const predicate = statement.predicate as { audit?: { events?: unknown } } | undefined;
  const events = predicate?.audit?.events;
  if (events !== undefined) {
    if (!Array.isArray(events)) return { ok: false, reason: 'predicate.audit.events is not a list' };
    for (const [index, event] of events.entries()) {
      const problem = eventProblem(event);
      if (problem !== undefined) return { ok: false, reason: `predicate.audit.events[${index}]: ${problem}` };
    }
  }
  return { ok: true, statement: statement as unknown as InTotoStatement, keyId: opened.keyId };
}

function eventProblem(value: unknown): string | undefined {
  const event = checkEventShape(value);
  if (isShapeProblem(event)) return event.reason;
  try {
    return hashEvent(event) === event.hash ? undefined : 'its hash does not match its content';
  } catch {
    return 'it holds a value audit events may not carry';
  }
}

function isSubject(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const { name, digest } = value as Record<string, unknown>;
  return (
    typeof name === 'string' &&
    digest !== null &&
    typeof digest === 'object' &&
    Object.keys(digest).length > 0 &&
    Object.values(digest).every((item) => typeof item === 'string')
  );
}
