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
 * Returns the commit, or `undefined` when another process got there first: fast-import refuses to move a ref
 * to a commit that does not contain the ref's current tip ("Not updating"), and moves it in a ref
 * transaction against the tip it read, which fails when the ref moved or is locked in between ("cannot lock
 * ref"); either way nothing moved and the caller reads the tip again.
 *
 * NOTE: this is a fast-forward guard, not an exact compare-and-swap: a ref found at an ancestor of `expected`,
 * or deleted, is moved (or created) anyway. That suits a chain that only ever moves forward (the audit
 * checkpoints, whose signatures catch a rewound chain); a ref that must move only from one exact value needs
 * `update-ref <ref> <new> <old>`.
 */
export async function commitFileToReference(
  options: CommitFileToReferenceOptions,
): Promise<string | undefined> {
  if (/[\0\n/]/.test(options.file.name) || options.file.name === '') {
    throw new Error(`commitFileToReference: bad file name ${JSON.stringify(options.file.name)}`);
  }
  if (options.file.name.startsWith('"')) {
    throw new Error(`commitFileToReference: a file name may not start with a quote: ${options.file.name}`);
  }
  if (!/^refs\/[^\s]+$/.test(options.reference)) {
    throw new Error(`commitFileToReference: bad reference ${JSON.stringify(options.reference)}`);
  }
  if (options.expected !== undefined && !/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(options.expected)) {
    throw new Error(`commitFileToReference: expected must be a full commit id, not ${options.expected}`);
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
  if (result.exitCode === 1 && lostRace(result.stderr, options.reference)) return undefined;
  throw new Error(
    `git fast-import could not write ${options.reference}: ${result.stderr || `exit code ${result.exitCode}`}`,
  );
}

/** fast-import's words for a ref it did not move because another process moved or held it meanwhile. */
function lostRace(stderr: string, reference: string): boolean {
  return (
    stderr.includes(`Not updating ${reference}`) ||
    stderr.includes(`cannot lock ref '${reference}'`) ||
    (stderr.includes('Unable to create') && stderr.includes(`${reference}.lock`))
  );
}
