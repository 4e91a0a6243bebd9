import type { TaskWorkspaceLayout } from './create-task-workspace.js';

/** Characters that never need quoting in a POSIX shell word. */
const plainWord = /^[A-Za-z0-9_/.:@%+=,-]+$/;

/** `value` as one POSIX shell word, quoted only when it needs to be, for commands shown to the user. */
export function shellWord(value: string): string {
  return plainWord.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that brings the base branch's current tip into a kept task workspace, for a user resolving
 * a conflict (`merge`) or making a fast-forward possible (`rebase`), as landing messages print it. A
 * workspace repository has no refs of the user's repository, so the base is fetched from it first (no
 * objects travel: the workspace already sees them through its alternate) and `FETCH_HEAD` merged; a
 * linked worktree of an earlier snodo shares the refs and merges the branch by name.
 */
export function workspaceUpdateCommand(options: {
  repositoryRoot: string;
  worktreePath: string;
  baseBranch: string;
  layout: TaskWorkspaceLayout;
  action: 'merge' | 'rebase';
}): string {
  const workspace = shellWord(options.worktreePath);
  if (options.layout === 'worktree') {
    return `git -C ${workspace} ${options.action} ${shellWord(options.baseBranch)}`;
  }
  return (
    `git -C ${workspace} fetch ${shellWord(options.repositoryRoot)} ${shellWord(`refs/heads/${options.baseBranch}`)}` +
    ` && git -C ${workspace} ${options.action} FETCH_HEAD`
  );
}
