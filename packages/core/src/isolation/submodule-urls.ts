import { git } from '../git/git.js';

/** One submodule the workspace must clone, with the URL to clone it from. */
export interface SubmoduleUrl {
  /** The submodule's name in `.gitmodules` (`submodule.<name>.url`). */
  readonly name: string;
  /** Where to clone it from: the user's configured URL, else `.gitmodules`' URL made absolute. */
  readonly url: string;
}

/**
 * The URLs a task workspace clones its submodules from. A linked worktree shared the repository's config,
 * so `git submodule update --init` found the URLs the user had initialised and resolved relative ones
 * against the repository's remote. A workspace repository has neither, so snodo resolves them here, the
 * way git would in the user's checkout: `submodule.<name>.url` from the repository's config when set, else
 * the URL in `.gitmodules`, a relative one (`../lib.git`) taken against the base branch's remote URL (or
 * `origin`'s), or against the repository's own directory when it has no remote.
 */
export async function submoduleUrls(options: {
  repositoryRoot: string;
  /** The `.gitmodules` file to read (the workspace's, just checked out). */
  gitmodulesPath: string;
  baseBranch: string;
  /** The repository's config, as `readRepositorySettings` returned it. */
  configured: ReadonlyMap<string, string>;
}): Promise<SubmoduleUrl[]> {
  const declared = await git(
    ['config', '--file', options.gitmodulesPath, '--null', '--get-regexp', '^submodule\\..*\\.url$'],
    { cwd: options.repositoryRoot, allowFailure: true, readOnly: true },
  );
  const remoteName = options.configured.get(`branch.${options.baseBranch}.remote`) ?? 'origin';
  const remoteUrl = options.configured.get(`remote.${remoteName}.url`) ?? options.repositoryRoot;
  const urls: SubmoduleUrl[] = [];
  for (const record of declared.stdout.split('\0')) {
    const newline = record.indexOf('\n');
    if (newline === -1) continue;
    const key = record.slice(0, newline);
    const name = key.slice('submodule.'.length, -'.url'.length);
    const own = options.configured.get(`submodule.${name}.url`);
    const url = own ?? resolveRelativeUrl(remoteUrl, record.slice(newline + 1));
    urls.push({ name, url });
  }
  return urls;
}

/**
 * git's rule for a relative submodule URL: each leading `../` drops one path component of the base (a
 * `/`- or, for `host:path` URLs, `:`-separated one), `./` drops nothing. Absolute URLs are returned as
 * they are.
 */
export function resolveRelativeUrl(base: string, url: string): string {
  if (!url.startsWith('./') && !url.startsWith('../')) return url;
  let remote = base.replace(/\/+$/, '');
  let rest = url;
  for (;;) {
    if (rest.startsWith('../')) {
      rest = rest.slice(3);
      const slash = remote.lastIndexOf('/');
      const colon = remote.includes('://') ? -1 : remote.lastIndexOf(':');
      // `host:org` → `host:` keeps the colon, so `../x` resolves to `host:x` as git does.
      remote = colon > slash ? remote.slice(0, colon + 1) : slash === -1 ? '.' : remote.slice(0, slash);
    } else if (rest.startsWith('./')) {
      rest = rest.slice(2);
    } else {
      break;
    }
  }
  const separator = remote.endsWith(':') ? '' : '/';
  return rest === '' ? remote : `${remote}${separator}${rest}`;
}
