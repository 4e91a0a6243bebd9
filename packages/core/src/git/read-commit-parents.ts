import { readObjectThroughReader } from './commit-reader.js';

/** A commit and the parents its object names, in order. */
export interface CommitParents {
  readonly commit: string;
  readonly parents: readonly string[];
}

/**
 * The commit `revision` names and its parents (what `git rev-list --max-count=1 --parents <rev>` prints),
 * read from the commit object through the repository's long-lived reader, so no process is spawned.
 * `undefined` when there is no reader for `cwd` (not the top of a working tree), it failed, or `revision`
 * names no commit: the caller then asks git itself, which also gives git's error.
 */
export async function readCommitParents(cwd: string, revision: string): Promise<CommitParents | undefined> {
  const object = await readObjectThroughReader(cwd, `${revision}^{commit}`);
  if (object === undefined || object === 'missing' || object.type !== 'commit') return undefined;
  // The header ends at the first empty line; `parent` lines follow `tree`, before `author`.
  const text = object.content.toString('latin1');
  const end = text.indexOf('\n\n');
  const parents: string[] = [];
  for (const line of (end === -1 ? text : text.slice(0, end)).split('\n')) {
    if (line.startsWith('parent ')) parents.push(line.slice('parent '.length));
    else if (line.startsWith('author ')) break;
  }
  return { commit: object.name, parents };
}
