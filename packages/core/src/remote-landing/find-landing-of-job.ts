import { git } from '../git/index.js';

/** How far back along the base's first parents a retried landing looks for its own earlier landing. */
const searchDepth = 1000;

/**
 * The landing commit of `jobId` on `base`'s first-parent history (its `Snodo-Job` trailer), or `undefined`
 * when none of the last commits is one. A queue that retries a landing whose push had gone through asks
 * this to report the commit that landed instead of landing twice.
 */
export async function findLandingOfJob(
  clone: string,
  base: string,
  jobId: string,
): Promise<string | undefined> {
  const log = await git(
    [
      'log',
      '--first-parent',
      `--max-count=${searchDepth}`,
      '--format=%H%x00%B%x1e',
      '--end-of-options',
      base,
      '--',
    ],
    { cwd: clone, readOnly: true, allowFailure: true },
  );
  for (const record of log.stdout.split('\x1e')) {
    const [commit = '', message = ''] = record.replace(/^\n/, '').split('\0');
    if (message.split('\n').some((line) => line.trim() === `Snodo-Job: ${jobId}`)) return commit;
  }
  return undefined;
}
