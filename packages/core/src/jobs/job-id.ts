import { randomBytes } from 'node:crypto';

// Crockford-style lowercase alphabet without look-alikes (no i, l, o, u): ids are read aloud and typed.
const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A new job id: `j_` and 10 random characters (50 bits). Random, not derived from the task text, so the same
 * task run twice gets two jobs (the Python original's salted hash gave neither stability nor uniqueness).
 * Collisions are handled where the job directory is created exclusively.
 */
export function createJobId(): string {
  const bytes = randomBytes(10);
  let suffix = '';
  for (const byte of bytes) suffix += alphabet[byte % alphabet.length];
  return `j_${suffix}`;
}

/** `true` for strings shaped like a job id, so user input can be checked before it becomes a path. */
export function isJobId(value: string): boolean {
  return /^j_[0-9a-z]{6,32}$/.test(value);
}
