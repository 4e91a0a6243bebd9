/**
 * What a judge's tools read: one commit's tree in one repository, never a working directory. Post-execute
 * judges read the task workspace at the commit under judgement (`base..HEAD` is the change), so they see
 * exactly what would land — not untracked setup output, not a file the coder left uncommitted. Pre-execute
 * judges read the base commit in the main checkout's repository, since no workspace exists yet.
 */
export interface JudgeToolSource {
  /** The repository git runs in (its cwd): the task workspace, or the main checkout before execution. */
  readonly directory: string;
  /** The commit whose tree `read_file` and `list_files` read, and the default end of `read_diff`. */
  readonly headCommit: string;
  /** The job's base commit: the default start of `read_diff` (equal to `headCommit` before execution). */
  readonly baseCommit: string;
}

/**
 * The source judges with tools read in `phase`: the one the caller gave, else post-execute the worktree's
 * repository at the judged commit; pre-execute there is no default (the caller reads the base for it).
 */
export function judgeToolSourceFor(
  phase: string,
  context: {
    readonly judgeToolSource?: JudgeToolSource;
    readonly worktreePath: string;
    readonly diff?: { readonly baseCommit: string; readonly headCommit: string };
  },
): JudgeToolSource | undefined {
  if (context.judgeToolSource !== undefined) return context.judgeToolSource;
  if (phase !== 'post_execute' || context.diff === undefined) return undefined;
  return {
    directory: context.worktreePath,
    headCommit: context.diff.headCommit,
    baseCommit: context.diff.baseCommit,
  };
}
