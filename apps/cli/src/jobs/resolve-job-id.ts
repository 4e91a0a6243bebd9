import { existsSync, readdirSync } from 'node:fs';
import { findMainCheckoutForReading, jobPaths, jobsDirectory, listJobs } from '@snodo/core/jobs';
import { CliError } from '../errors/cli-error.js';
import { compareCodePoints } from '../output/format.js';

/** A job reference resolved to a job id, with the repository it lives in. */
export interface ResolvedJob {
  readonly repositoryRoot: string;
  readonly jobId: string;
}

/**
 * Turns what a user typed after `snodo meta`, `logs` or `task …` into a job id: an exact id, `last` (the
 * newest job), or a unique beginning of an id (`j_k3`). An unknown reference is passed through unchanged,
 * so core reports `JOB_NOT_FOUND` with its own hint; an ambiguous one lists the candidates.
 */
export async function resolveJobId(cwd: string, reference: string): Promise<ResolvedJob> {
  const { root } = await findMainCheckoutForReading(cwd);
  if (reference === 'last') {
    const newest = listJobs(root)
      .sort((left, right) => compareCodePoints(left.createdAt, right.createdAt))
      .at(-1);
    if (newest === undefined) {
      throw new CliError('JOB_NOT_FOUND', {
        message: `There are no jobs in ${root}/.snodo/jobs yet.`,
        fix: 'snodo run "<task>" --mock',
      });
    }
    return { repositoryRoot: root, jobId: newest.jobId };
  }
  if (existsSync(jobPaths(root, reference).state)) return { repositoryRoot: root, jobId: reference };
  const directory = jobsDirectory(root);
  const candidates = existsSync(directory)
    ? readdirSync(directory).filter((name) => name.startsWith(reference) && name !== reference)
    : [];
  if (candidates.length === 1 && candidates[0] !== undefined)
    return { repositoryRoot: root, jobId: candidates[0] };
  if (candidates.length > 1) {
    throw new CliError('CLI_USAGE', {
      message: `"${reference}" matches ${candidates.length} jobs: ${candidates.slice(0, 8).join(', ')}.`,
      fix: 'Type more of the id; `snodo task list` shows them all.',
    });
  }
  return { repositoryRoot: root, jobId: reference };
}
