import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.WORKSPACE_BRANCH_MISMATCH';

/** Which comparison failed when importing a workspace's branch. */
export type WorkspaceBranchMismatch =
  /** The workspace's branch is not at the commit snodo read after the attempt (something moved it since). */
  | 'workspace-moved'
  /** The fetch finished but the user's repository still lacks the commit. */
  | 'not-fetched'
  /** The user's task branch moved while snodo imported (another process wrote it). */
  | 'repository-moved';

/**
 * Importing a task workspace's branch into the user's repository found something other than what snodo
 * judged. Nothing was moved: the user's task branch keeps its previous value, and the job must not land
 * (the gates saw a different commit than the one that would be merged).
 */
export class WorkspaceBranchMismatchError extends SnodoError<'WORKSPACE_BRANCH_MISMATCH'> {
  /** The workspace. */
  readonly worktreePath: string;
  /** The task branch. */
  readonly branch: string;
  /** The commit snodo expected. */
  readonly expectedCommit: string;
  /** What was found instead (absent when nothing was). */
  readonly actualCommit?: string;
  /** Which comparison failed. */
  readonly mismatch: WorkspaceBranchMismatch;

  constructor(options: {
    worktreePath: string;
    branch: string;
    expectedCommit: string;
    actualCommit?: string | undefined;
    mismatch: WorkspaceBranchMismatch;
    cause?: unknown;
  }) {
    const expected = options.expectedCommit.slice(0, 12);
    const actual = options.actualCommit?.slice(0, 12) ?? 'nothing';
    const what =
      options.mismatch === 'workspace-moved'
        ? `${options.branch} in ${options.worktreePath} is at ${actual}, not at ${expected} as snodo read it after the attempt`
        : options.mismatch === 'not-fetched'
          ? `fetching ${expected} from ${options.worktreePath} did not bring it into your repository`
          : `${options.branch} in your repository moved to ${actual} while snodo imported ${expected}`;
    super('WORKSPACE_BRANCH_MISMATCH', {
      message:
        `Did not import the task branch: ${what}. Nothing was moved. ` +
        `Inspect it with \`git -C ${options.worktreePath} log ${options.branch}\` before going on.`,
      cause: options.cause,
    });
    this.name = 'WorkspaceBranchMismatchError';
    SnodoError.mark(this, marker);
    this.worktreePath = options.worktreePath;
    this.branch = options.branch;
    this.expectedCommit = options.expectedCommit;
    if (options.actualCommit !== undefined) this.actualCommit = options.actualCommit;
    this.mismatch = options.mismatch;
  }

  static override isInstance(value: unknown): value is WorkspaceBranchMismatchError {
    return SnodoError.hasMarker(value, marker);
  }
}
