import { createHash } from 'node:crypto';
import { refComponentProblem } from '@snodo/core';
import { QueueSubmissionError } from './errors.js';
import type { SubmittedRunOptions } from './queue-jobs.js';

/** What a submission's id is derived from. */
export interface SubmissionIdentity {
  readonly task: string;
  readonly base: string;
  readonly baseCommit: string;
  readonly protocolBlob: string;
  readonly options: SubmittedRunOptions;
}

// BullMQ refuses custom ids that are integers or contain `:`; the id also names a ref on the remote.
const USER_ID = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;

/**
 * The queue job id of a submission: `q_` and 16 hex digits of SHA-256 over its inputs, so submitting the same
 * task on the same base twice (a retried command, a lost reply) adds no second job — BullMQ keeps one job per
 * id. A user's `--id` replaces it when it is a safe name.
 */
export function submissionJobId(identity: SubmissionIdentity, userId?: string): string {
  if (userId !== undefined) {
    // Core's rule for a ref component (no `..`, no trailing `.` or `.lock`), and BullMQ's (a letter first).
    if (!USER_ID.test(userId) || refComponentProblem(userId) !== undefined) {
      throw new QueueSubmissionError({
        problem: `the id ${JSON.stringify(userId)} is not usable`,
        fix: 'Use a letter, then up to 63 letters, digits, `.`, `_` or `-`, not ending in `.` or `.lock` (it names refs/snodo/jobs/<id>).',
      });
    }
    return userId;
  }
  const options = Object.fromEntries(
    Object.entries(identity.options)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  const canonical = JSON.stringify([
    identity.task,
    identity.base,
    identity.baseCommit,
    identity.protocolBlob,
    options,
  ]);
  return `q_${createHash('sha256').update(canonical).digest('hex').slice(0, 16)}`;
}
