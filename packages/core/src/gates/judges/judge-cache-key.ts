import { createHash } from 'node:crypto';

/**
 * The key that names a phase's shared judge prompt for a provider that routes cached prompts by a key:
 * the job and a hash of the shared prefix (the task, the diff and the command results it carries). The
 * same for every judge of one phase and attempt; another diff gets another key. 40 characters at most.
 */
export function judgeCacheKey(sharedPrefix: string, jobId?: string): string {
  const digest = createHash('sha256').update(sharedPrefix).digest('hex').slice(0, 16);
  return jobId === undefined ? `snodo-${digest}` : `snodo-${jobId.slice(0, 16)}-${digest}`;
}
