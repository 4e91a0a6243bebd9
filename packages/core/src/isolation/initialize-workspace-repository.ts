import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { git } from '../git/git.js';
import type { GitIdentity } from '../git/git-identity.js';
import type { ObjectFormat } from '../git/object-format.js';
import { copiedConfigKeys, globalExcludesPath, quoteConfigValue } from './repository-settings.js';
import { submoduleUrls } from './submodule-urls.js';
import { writeWorkspaceMarker } from './workspace-marker.js';

/** What `initializeWorkspaceRepository` needs: the user's repository as read once by the caller. */
export interface WorkspaceRepositoryPlan {
  /** The user's working tree (for git calls that read its config). */
  readonly repositoryRoot: string;
  /** The user's git common directory, absolute with symlinks resolved. */
  readonly gitCommonDirectory: string;
  /** Where the workspace goes; must not exist yet. */
  readonly worktreePath: string;
  readonly jobId: string;
  /** The task branch (short name). */
  readonly branch: string;
  readonly baseBranch: string;
  readonly baseRef: string;
  readonly baseCommit: string;
  readonly objectFormat: ObjectFormat;
  /** Written into the workspace's config, so the coder's own `git commit` works with a private HOME. */
  readonly identity: GitIdentity;
  /** The user's settings as `readRepositorySettings` read them. */
  readonly settings: ReadonlyMap<string, string>;
  readonly initializeSubmodules: boolean;
}

/**
 * Create the task workspace: its own repository, so refs, config, hooks and `info/` are its own and a
 * coder's git cannot reach the user's, which borrows every object of the user's repository through
 * `objects/info/alternates` (nothing is copied, creation stays as cheap as a worktree).
 *
 * Order matters for crash safety: the marker is written right after `git init`, so a half-made workspace
 * is still recognisable as snodo's; the files are checked out last.
 */
export async function initializeWorkspaceRepository(plan: WorkspaceRepositoryPlan): Promise<void> {
  const gitDirectory = path.join(plan.worktreePath, '.git');
  await git(
    [
      'init',
      '--quiet',
      // An empty template: no sample hooks, nothing from the user's init.templateDir.
      '--template=',
      `--object-format=${plan.objectFormat}`,
      `--initial-branch=${plan.branch}`,
      '--',
      plan.worktreePath,
    ],
    { cwd: path.dirname(plan.worktreePath) },
  );
  writeWorkspaceMarker(plan.worktreePath, {
    jobId: plan.jobId,
    branch: plan.branch,
    baseRef: plan.baseRef,
    baseCommit: plan.baseCommit,
    gitCommonDirectory: plan.gitCommonDirectory,
  });
  await fs.mkdir(path.join(gitDirectory, 'objects', 'info'), { recursive: true });
  await fs.writeFile(
    path.join(gitDirectory, 'objects', 'info', 'alternates'),
    `${path.join(plan.gitCommonDirectory, 'objects')}\n`,
  );
  // NOTE: a shallow repository's history stops at the commits in `shallow`; without a copy, git in the
  // workspace would look for their parents, which exist nowhere.
  const shallow = path.join(plan.gitCommonDirectory, 'shallow');
  if (existsSync(shallow)) await fs.copyFile(shallow, path.join(gitDirectory, 'shallow'));
  await fs.mkdir(path.join(gitDirectory, 'hooks'), { recursive: true });
  await fs.mkdir(path.join(gitDirectory, 'info'), { recursive: true });
  await fs.writeFile(path.join(gitDirectory, 'info', 'exclude'), await excludePatterns(plan));
  const attributes = path.join(plan.gitCommonDirectory, 'info', 'attributes');
  if (existsSync(attributes)) await fs.copyFile(attributes, path.join(gitDirectory, 'info', 'attributes'));
  await fs.appendFile(path.join(gitDirectory, 'config'), workspaceConfig(plan));

  // On the unborn task branch, `reset --hard <base>` creates the branch and checks out every file in one
  // command.
  await git(['reset', '--quiet', '--hard', plan.baseCommit], { cwd: plan.worktreePath });

  if (plan.initializeSubmodules && existsSync(path.join(plan.worktreePath, '.gitmodules'))) {
    const urls = await submoduleUrls({
      repositoryRoot: plan.repositoryRoot,
      gitmodulesPath: path.join(plan.worktreePath, '.gitmodules'),
      baseBranch: plan.baseBranch,
      configured: plan.settings,
    });
    for (const submodule of urls) {
      await git(['config', `submodule.${submodule.name}.url`, submodule.url], { cwd: plan.worktreePath });
    }
    await git(['submodule', 'update', '--init', '--recursive'], { cwd: plan.worktreePath });
  }
}

/** The identity and the user's conversion settings, in git's config syntax. */
function workspaceConfig(plan: WorkspaceRepositoryPlan): string {
  const lines = [
    '[user]',
    `\tname = ${quoteConfigValue(plan.identity.name)}`,
    `\temail = ${quoteConfigValue(plan.identity.email)}`,
  ];
  const core = copiedConfigKeys.filter((key) => plan.settings.has(key));
  if (core.length > 0) lines.push('[core]');
  for (const key of core) {
    lines.push(`\t${key.slice('core.'.length)} = ${quoteConfigValue(plan.settings.get(key) ?? '')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The user's `info/exclude` and global excludes file, which the workspace would otherwise lose. */
async function excludePatterns(plan: WorkspaceRepositoryPlan): Promise<string> {
  const sources = [path.join(plan.gitCommonDirectory, 'info', 'exclude'), globalExcludesPath(plan.settings)];
  const parts: string[] = [];
  for (const source of sources) {
    const text = await fs.readFile(source, 'utf8').catch(() => undefined);
    if (text !== undefined && text.trim() !== '') {
      parts.push(`# copied by snodo from ${source}\n${text.endsWith('\n') ? text : `${text}\n`}`);
    }
  }
  return parts.join('');
}
