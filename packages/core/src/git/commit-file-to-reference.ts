import { git } from './git.js';
import type { GitIdentity } from './git-identity.js';

/** Options of `commitFileToReference`. */
export interface CommitFileToReferenceOptions {
  /** A directory of the repository. */
  readonly cwd: string;
  /** The full ref to move, e.g. `refs/snodo/audit`. */
  readonly reference: string;
  /** The commit the ref must be at now (the new commit's parent), or `undefined` for a ref that must not exist. */
  readonly expected: string | undefined;
  /** The one file of the commit's tree: its name (no directories) and content. */
  readonly file: { readonly name: string; readonly content: string };
  /** The commit message. */
  readonly message: string;
  /** Author and committer. */
  readonly identity: GitIdentity;
}

/**
 * Writes a commit whose tree holds exactly one file, with `expected` as its parent, and moves `reference`
 * to it: one `git fast-import` (which hands its few objects to `unpack-objects`, so they are loose like
 * `hash-object -w` would write them) instead of `hash-object`, `mktree`, `commit-tree` and `update-ref`.
 * Returns the commit, or `undefined` when the ref was not at `expected`: fast-import refuses to move a ref
 * to a commit that does not contain the ref's current tip, and moves it in a ref transaction against the
 * tip it read, so a lost race changes nothing and the caller reads the tip again.
 */
export async function commitFileToReference(
  options: CommitFileToReferenceOptions,
): Promise<string | undefined> {
  if (/[\0\n/]/.test(options.file.name) || options.file.name === '') {
    throw new Error(`commitFileToReference: bad file name ${JSON.stringify(options.file.name)}`);
  }
  if (/[<>\n]/.test(`${options.identity.name}${options.identity.email}`)) {
    throw new Error('commitFileToReference: the identity holds <, > or a line break');
  }
  const data = (text: string): string => `data ${Buffer.byteLength(text, 'utf8')}\n${text}`;
  const stream = [
    'feature done',
    'blob',
    'mark :1',
    data(options.file.content),
    `commit ${options.reference}`,
    'mark :2',
    `committer ${options.identity.name} <${options.identity.email}> now`,
    data(options.message),
    ...(options.expected === undefined ? [] : [`from ${options.expected}`]),
    // The tree is exactly the one file, whatever the parent's tree held.
    'deleteall',
    `M 100644 :1 ${options.file.name}`,
    '',
    'get-mark :2',
    'done',
    '',
  ].join('\n');
  const result = await git(['fast-import', '--quiet', '--date-format=now'], {
    cwd: options.cwd,
    input: stream,
    allowFailure: true,
  });
  const commit = result.stdout.trim();
  if (result.exitCode === 0 && /^[0-9a-f]{40,64}$/.test(commit)) return commit;
  // NOTE: fast-import reports a ref it did not move as a warning and exits 1 after writing the objects.
  if (result.exitCode === 1 && result.stderr.includes(`Not updating ${options.reference}`)) return undefined;
  throw new Error(
    `git fast-import could not write ${options.reference}: ${result.stderr || `exit code ${result.exitCode}`}`,
  );
}
