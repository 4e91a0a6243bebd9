import { git } from './git.js';

/** One file changed between two commits, from `git diff --name-status -M`. */
export interface DiffNameStatusEntry {
  /** `A` added, `M` modified, `D` deleted, `R` renamed, `C` copied, `T` type changed (e.g. file ↔ symlink). */
  readonly status: string;
  /** For renames and copies, git's similarity percentage (0–100). */
  readonly similarity?: number;
  /** The path after the change, relative to the repository root. */
  readonly path: string;
  /** For renames and copies: the path before. */
  readonly previousPath?: string;
}

/**
 * The files that differ between two commits, with renames detected. Post-execute gates, the `.snodo/`
 * guard and landing read it. External diff drivers and textconv filters are disabled, so nothing from the
 * repository's config runs.
 */
export async function diffNameStatus(options: {
  cwd: string;
  from: string;
  to: string;
  /** Detect renames (`-M`); default `true`. Landing turns it off to see both sides of a rename. */
  renames?: boolean;
}): Promise<DiffNameStatusEntry[]> {
  const result = await git(
    [
      'diff',
      '--name-status',
      '-z',
      options.renames === false ? '--no-renames' : '-M',
      '--no-ext-diff',
      '--no-textconv',
      '--end-of-options',
      options.from,
      options.to,
      '--',
    ],
    { cwd: options.cwd, readOnly: true },
  );
  return parseNameStatus(result.stdout);
}

/** Parse `git diff --name-status -z`: `status\0path\0`, or `Rnn\0old\0new\0` for renames and copies. */
export function parseNameStatus(output: string): DiffNameStatusEntry[] {
  const fields = output.split('\0');
  const entries: DiffNameStatusEntry[] = [];
  let position = 0;
  while (position < fields.length) {
    const code = fields[position++] ?? '';
    if (code === '') continue;
    const status = code[0] ?? '';
    if (status === 'R' || status === 'C') {
      const previousPath = fields[position++] ?? '';
      const newPath = fields[position++] ?? '';
      entries.push({
        status,
        similarity: Number.parseInt(code.slice(1), 10) || 0,
        path: newPath,
        previousPath,
      });
    } else {
      entries.push({ status, path: fields[position++] ?? '' });
    }
  }
  return entries;
}
