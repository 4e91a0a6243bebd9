/** The trailer key of a remote landing commit: which event of which worker's chain records the landing. */
export const AUDIT_ANCHOR_TRAILER_KEY = 'Snodo-Audit';

/** What a `Snodo-Audit` trailer names: an event of a worker's chain, by position and hash. */
export interface AuditAnchor {
  readonly worker: string;
  readonly seq: number;
  readonly hash: string;
}

/** `worker=<id> seq=<n> hash=<h>`: the value of the trailer (`landingMessage` adds the key). */
export function formatAuditAnchor(anchor: AuditAnchor): string {
  return `worker=${anchor.worker} seq=${anchor.seq} hash=${anchor.hash}`;
}

const anchorPattern = /^worker=([A-Za-z0-9][A-Za-z0-9._-]*) seq=(0|[1-9][0-9]{0,15}) hash=([0-9a-f]{64})$/;

/**
 * The `Snodo-Audit` trailers of a commit message: each parsed anchor, or the malformed value as a problem.
 * Only lines of the message's last paragraph count, as git reads trailers.
 */
export function readAuditAnchors(message: string): Array<AuditAnchor | { readonly malformed: string }> {
  const paragraphs = message.trimEnd().split(/\n\s*\n/);
  const last = paragraphs.length > 1 ? (paragraphs.at(-1) ?? '') : '';
  const found: Array<AuditAnchor | { readonly malformed: string }> = [];
  for (const line of last.split('\n')) {
    if (!line.startsWith(`${AUDIT_ANCHOR_TRAILER_KEY}:`)) continue;
    const value = line.slice(AUDIT_ANCHOR_TRAILER_KEY.length + 1).trim();
    const match = anchorPattern.exec(value);
    if (match === null) {
      found.push({ malformed: value });
      continue;
    }
    found.push({ worker: match[1] as string, seq: Number(match[2]), hash: match[3] as string });
  }
  return found;
}
