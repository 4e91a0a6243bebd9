import { runGit, runGitSync } from '@snodo/coder-sdk';
import { resolveCommit } from '../../git/rev-parse.js';
import type { DiffContext, DiffFile, DiffFileStatus, DiffSymlink } from './diff-context.js';

/** Where and between which commits `loadDiffContext` reads the change. */
export interface LoadDiffContextOptions {
  /** Any directory of the repository (the task worktree is the natural choice). */
  readonly cwd: string;
  /** The base commit (a sha or a ref). */
  readonly baseCommit: string;
  /** The commit to judge (default `HEAD`). */
  readonly headCommit?: string;
  /**
   * The changed files of `from..to` as a caller already read them with `git diff --name-status -z -M`
   * (the attempt's own check, `diffNameStatus`): used instead of a second identical diff when `from` and
   * `to` are the base and head commits resolved here, ignored otherwise.
   */
  readonly knownChanges?: {
    readonly from: string;
    readonly to: string;
    readonly entries: readonly {
      readonly status: string;
      readonly path: string;
      readonly previousPath?: string;
    }[];
  };
}

// NOTE: a user's git config can change diff output (diff.noprefix, diff.mnemonicPrefix, external diff
// drivers, textconv, quoted paths); every option that matters is forced on the command line instead, on
// top of the runner's own hardening (hooks, fsmonitor, pager, scrubbed GIT_DIR…).
const gitConfig = [
  '-c',
  'core.quotePath=false',
  '-c',
  'diff.noprefix=false',
  '-c',
  'diff.mnemonicPrefix=false',
];
const diffFlags = [
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '-M',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];

async function git(cwd: string, args: readonly string[]): Promise<string> {
  const { stdout } = await runGit([...gitConfig, ...args], { cwd, readOnly: true });
  return stdout;
}

/**
 * `revision` as a full commit id, through the repository's ref reader (the pipeline resolved both commits
 * moments ago, so this is a lookup, not a process); one that names no commit fails with git's own error.
 */
async function resolveCommitOrThrow(cwd: string, revision: string): Promise<string> {
  const commit = await resolveCommit(cwd, revision);
  if (commit !== undefined) return commit;
  return (await git(cwd, ['rev-parse', '--verify', '--end-of-options', `${revision}^{commit}`])).trim();
}

function toStatus(letter: string): DiffFileStatus {
  if (letter === 'A' || letter === 'C') return 'A';
  if (letter === 'D') return 'D';
  if (letter === 'R') return 'R';
  return 'M';
}

/** Parses `git diff --name-status -z -M` output: `M\0path\0` or `R100\0old\0new\0`. */
export function parseNameStatus(output: string): DiffFile[] {
  const parts = output.split('\0');
  const files: DiffFile[] = [];
  let index = 0;
  while (index < parts.length) {
    const code = parts[index] ?? '';
    if (code === '') break;
    const letter = code[0] ?? 'M';
    if (letter === 'R' || letter === 'C') {
      const previousPath = parts[index + 1] ?? '';
      const path = parts[index + 2] ?? '';
      files.push({ path, status: toStatus(letter), previousPath });
      index += 3;
    } else {
      files.push({ path: parts[index + 1] ?? '', status: toStatus(letter) });
      index += 2;
    }
  }
  return files;
}

/** `ls-tree -r -z` entries (`<mode> <type> <object>\t<path>`) as path → mode. */
function parseTreeListing(listing: string): Map<string, string> {
  const modes = new Map<string, string>();
  for (const entry of listing.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab === -1) continue;
    modes.set(entry.slice(tab + 1), entry.slice(0, entry.indexOf(' ')));
  }
  return modes;
}

/** Every file at `commit` and every directory above one, for `exists()`. */
function pathSet(files: Iterable<string>): Set<string> {
  const paths = new Set<string>();
  for (const file of files) {
    if (file === '') continue;
    paths.add(file);
    let slash = file.lastIndexOf('/');
    while (slash > 0) {
      const directory = file.slice(0, slash);
      if (paths.has(directory)) break;
      paths.add(directory);
      slash = directory.lastIndexOf('/');
    }
  }
  return paths;
}

function normalise(path: string): string {
  const relative = path.replace(/^\.\/+/, '');
  // A loop, not `/\/+$/`: that regex rescans a run of slashes from each of them when the run is not last.
  let end = relative.length;
  while (end > 0 && relative.endsWith('/', end)) end -= 1;
  return relative.slice(0, end);
}

/**
 * Builds the `DiffContext` of `base..head` from real git: the changed files (renames detected), the unified
 * diff, and read access to the tree at `head`. Throws git's error when a commit does not resolve.
 */
export async function loadDiffContext(options: LoadDiffContextOptions): Promise<DiffContext> {
  const { cwd } = options;
  const [baseCommit, headCommit] = await Promise.all([
    resolveCommitOrThrow(cwd, options.baseCommit),
    resolveCommitOrThrow(cwd, options.headCommit ?? 'HEAD'),
  ]);
  const known =
    options.knownChanges?.from === baseCommit && options.knownChanges.to === headCommit
      ? options.knownChanges.entries.map((entry) => ({
          path: entry.path,
          status: toStatus(entry.status[0] ?? 'M'),
          ...(entry.previousPath === undefined ? {} : { previousPath: entry.previousPath }),
        }))
      : undefined;
  const [files, patch, listing] = await Promise.all([
    known ??
      git(cwd, ['diff', ...diffFlags, '--name-status', '-z', baseCommit, headCommit, '--']).then(
        parseNameStatus,
      ),
    git(cwd, ['diff', ...diffFlags, baseCommit, headCommit, '--']),
    git(cwd, ['ls-tree', '-r', '-z', headCommit]),
  ]);
  const modes = parseTreeListing(listing);
  const paths = pathSet(modes.keys());
  const readFile = (path: string): string | undefined => {
    const file = normalise(path);
    if (!paths.has(file)) return undefined;
    const result = runGitSync(['cat-file', 'blob', `${headCommit}:${file}`], {
      cwd,
      readOnly: true,
      allowedExitCodes: 'any',
    });
    return result.exitCode === 0 ? result.stdout : undefined;
  };
  const symlinks: DiffSymlink[] = files
    .filter((file) => file.status !== 'D' && modes.get(file.path) === '120000')
    .map((file) => ({ path: file.path, target: readFile(file.path) ?? '' }));
  return {
    baseCommit,
    headCommit,
    files,
    patch,
    exists: (path) => paths.has(normalise(path)),
    readFile,
    symlinks,
  };
}
