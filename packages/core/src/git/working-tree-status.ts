import { git } from './git.js';

/** One changed path in a working tree, from `git status --porcelain=v1 -z`. */
export interface StatusEntry {
  /** The index (staged) status letter: `M`, `A`, `D`, `R`, `C`, `U`, ` ` (unchanged), `?` (untracked). */
  readonly index: string;
  /** The working-tree status letter, same alphabet. */
  readonly workTree: string;
  /** The path, relative to the working tree root, `/`-separated. */
  readonly path: string;
  /** For a rename or copy: the path it came from. */
  readonly originalPath?: string;
}

/**
 * Every uncommitted change in the working tree containing `cwd`: staged, unstaged and untracked (each
 * untracked file listed, not its directory), a submodule whose checked-out commit differs from the one
 * recorded, ignored files excluded. A read without optional locks, so it is safe while an agent works in
 * that tree. An empty list means clean.
 *
 * NOTE: uncommitted changes *inside* a submodule are not looked at (`--ignore-submodules=dirty`). To see
 * them git runs `git status` in the submodule, with the submodule's own config: a coder that commits a
 * nested repository whose config defines a filter driver (and a `.gitattributes` naming it) would have
 * that filter run by snodo's status outside the sandbox, whatever `-c` flags snodo passes. What snodo
 * commits and lands is the outer tree, where a submodule is only the commit it records.
 */
export async function workingTreeStatus(
  cwd: string,
  options: { includeUntracked?: boolean } = {},
): Promise<StatusEntry[]> {
  const untracked = options.includeUntracked === false ? 'no' : 'all';
  const result = await git(
    ['status', '--porcelain=v1', '-z', `--untracked-files=${untracked}`, '--ignore-submodules=dirty'],
    { cwd, readOnly: true },
  );
  return parsePorcelainStatus(result.stdout);
}

/** `true` when `workingTreeStatus` finds nothing: no staged, unstaged or untracked change. */
export async function isWorkingTreeClean(cwd: string): Promise<boolean> {
  return (await workingTreeStatus(cwd)).length === 0;
}

/**
 * Parse `git status --porcelain=v1 -z`. Records are `XY path\0`; a rename or copy is followed by a second
 * `\0`-terminated field holding the original path. Exported for tests.
 */
export function parsePorcelainStatus(output: string): StatusEntry[] {
  const fields = output.split('\0');
  const entries: StatusEntry[] = [];
  for (let position = 0; position < fields.length; position++) {
    const field = fields[position];
    if (field === undefined || field.length < 4) continue;
    const index = field[0] ?? ' ';
    const workTree = field[1] ?? ' ';
    const entryPath = field.slice(3);
    if (index === 'R' || index === 'C' || workTree === 'R' || workTree === 'C') {
      position++;
      entries.push({ index, workTree, path: entryPath, originalPath: fields[position] ?? '' });
    } else {
      entries.push({ index, workTree, path: entryPath });
    }
  }
  return entries;
}
