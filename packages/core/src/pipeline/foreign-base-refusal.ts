import { isAncestor } from '../git/rev-parse.js';
import type { LandTaskBranchResult } from '../isolation/index.js';
import { findForeignBaseCommits } from '../landing/index.js';

/**
 * The landing's base check (SPEC §12): when the base gained commits during the job that no snodo landing
 * made — the user's, another tool's, or a coder's that moved the base behind snodo's back — the job does not
 * land on top of them silently: it escalates (`base_moved`), naming them, and `snodo task approve` lands it
 * once a human has looked. `since` is the base the job started from, or the one a human approved.
 */
export async function refuseForeignBaseCommits(options: {
  repositoryRoot: string;
  jobId: string;
  baseRef: string;
  since: string;
  current: string;
  ledgerOffset: number;
}): Promise<LandTaskBranchResult | undefined> {
  const base = options.baseRef.replace(/^refs\/heads\//, '');
  if (!(await isAncestor(options.repositoryRoot, options.since, options.current))) {
    return {
      outcome: 'base_moved',
      previousBaseCommit: options.current,
      foreignCommits: [],
      message:
        `${base} no longer contains ${options.since.slice(0, 12)}, the commit the job started from: it was reset or ` +
        `rewritten during the job (now ${options.current.slice(0, 12)}). Nothing was landed. Find out what moved it ` +
        `(\`git reflog ${base}\`); to land the change anyway, \`snodo task approve ${options.jobId} --reason …\`.`,
    };
  }
  const found = await findForeignBaseCommits(options);
  if (found.count === 0) return undefined;
  const named = found.commits.map((commit) => `${commit.commit.slice(0, 12)} "${commit.subject}"`).join(', ');
  const more = found.count > found.commits.length ? ` and ${found.count - found.commits.length} more` : '';
  return {
    outcome: 'base_moved',
    previousBaseCommit: options.current,
    foreignCommits: found.commits,
    message:
      `${base} gained ${found.count} commit(s) during the job that no snodo landing made: ${named}${more}. ` +
      `Nothing was landed. Look at them (\`git log ${options.since.slice(0, 12)}..${options.current.slice(0, 12)}\`); ` +
      `if they are yours and fine, \`snodo task approve ${options.jobId} --reason …\` lands the change on top of them.`,
  };
}
