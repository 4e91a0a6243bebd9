import { canonicalJson } from './canonical-json.js';
import type { SignedCheckpoint } from './checkpoint.js';
import { parseCheckpointObject } from './checkpoint-shape.js';
import { AuditCheckpointError } from './errors.js';

/** The git trailer key snodo's merge commits carry the checkpoint under. */
export const CHECKPOINT_TRAILER_KEY = 'Snodo-Audit-Checkpoint';

/**
 * One line for a git commit trailer: `Snodo-Audit-Checkpoint: <base64url of canonical JSON>`. Base64url
 * keeps it one token with no spaces or `:`, so `git interpret-trailers` carries it unchanged.
 */
export function formatCheckpointTrailer(checkpoint: SignedCheckpoint): string {
  return `${CHECKPOINT_TRAILER_KEY}: ${Buffer.from(canonicalJson(checkpoint), 'utf8').toString('base64url')}`;
}

/**
 * Reads a checkpoint back from a trailer line (with or without the `Snodo-Audit-Checkpoint:` key) or
 * from the bare value. Checks the fields, not the signature: `verifyAuditLog` does that.
 */
export function parseCheckpointTrailer(text: string): SignedCheckpoint {
  let value = text.trim();
  const prefix = `${CHECKPOINT_TRAILER_KEY}:`;
  if (value.toLowerCase().startsWith(prefix.toLowerCase())) value = value.slice(prefix.length).trim();
  if (!/^[A-Za-z0-9_-]+$/.test(value)) {
    throw new AuditCheckpointError({ source: 'trailer', problem: 'the value is not base64url' });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch (cause) {
    throw new AuditCheckpointError({ source: 'trailer', problem: 'the value is not base64url JSON', cause });
  }
  return parseCheckpointObject(parsed, 'trailer');
}
