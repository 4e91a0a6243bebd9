import { IsolationFailedError } from './isolation-failed-error.js';

/** Every branch snodo creates starts with this; removal refuses any other branch. */
export const taskBranchPrefix = 'snodo/';

/** The longest slug taken from the task text. */
const slugLimit = 40;

/** Job ids become path segments and ref components, so only this shape is accepted. */
const jobIdPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const branchNamePattern = /^snodo\/[A-Za-z0-9][A-Za-z0-9_-]{0,63}-[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A readable, ref-safe slug of the task's first words: accents folded, lowercased, every other character a
 * separator, at most 40 characters cut at a word boundary, `task` when nothing is left. Task text is
 * untrusted (`$(…)`, `; rm -rf ~`, control characters, bidi overrides), and nothing but `[a-z0-9-]`
 * survives.
 */
export function taskSlug(task: string): string {
  const words = task
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  let slug = '';
  for (const word of words) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length > slugLimit) {
      if (slug === '') slug = word.slice(0, slugLimit);
      break;
    }
    slug = next;
  }
  return slug === '' ? 'task' : slug;
}

/** Throws `IsolationFailedError` unless `jobId` is a plain id (`j_` + letters, digits, `_`, `-`). */
export function assertJobId(jobId: string): void {
  if (!jobIdPattern.test(jobId)) {
    throw new IsolationFailedError({
      operation: 'create',
      message: `The job id ${JSON.stringify(jobId)} is not a valid snodo job id (letters, digits, _ and -, at most 64).`,
    });
  }
}

/**
 * The task branch `snodo/<jobId>-<slug>`, checked against the shape that makes it a valid git branch name,
 * so a name git would reject or reinterpret never reaches a ref update.
 */
export function taskBranchName(options: { jobId: string; task: string }): string {
  assertJobId(options.jobId);
  const branch = `${taskBranchPrefix}${options.jobId}-${taskSlug(options.task)}`;
  // By construction the name is a valid git branch: `snodo/`, then a job id (letters, digits, `_`, `-`,
  // starting with a letter or digit), then `-` and a slug of lower-case letters and digits joined by
  // single dashes — no `.`, `..`, `@{`, `~^:?*[\\`, space or `.lock` can occur — so no `git
  // check-ref-format` process is spent on it. The pattern below restates that, and a change to `taskSlug`
  // that broke it fails here, not in git.
  if (!branchNamePattern.test(branch)) {
    throw new IsolationFailedError({
      operation: 'create',
      message: `The task branch name ${JSON.stringify(branch)} is not a valid git branch name.`,
    });
  }
  return branch;
}
