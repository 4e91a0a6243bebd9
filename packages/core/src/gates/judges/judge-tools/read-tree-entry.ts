import { posix } from 'node:path';
import { git } from '../../../git/git.js';
import { confineJudgePath } from './confine-judge-path.js';
import { JUDGE_TOOL_LIMITS } from './judge-tool-limits.js';
import type { JudgeToolSource } from './judge-tool-source.js';

/** One entry of the judged commit's tree, after following symbolic links that stay inside it. */
export interface TreeEntry {
  /** The repository-relative path of the entry itself (a link's target when `path` was a link). */
  readonly path: string;
  readonly type: 'blob' | 'tree';
  readonly oid: string;
  /** Bytes of a blob; 0 for a tree. */
  readonly size: number;
}

/** An entry, or why there is none to read. */
export type TreeLookup =
  | { readonly ok: true; readonly entry: TreeEntry }
  | { readonly ok: false; readonly error: string };

const SYMLINK_MODE = '120000';
const SUBMODULE_MODE = '160000';

/** `git ls-tree -l` of exactly one path at the judged commit, or `undefined` when it is not in the tree. */
async function listOne(source: JudgeToolSource, path: string) {
  if (path === '') return { mode: '040000', type: 'tree', oid: `${source.headCommit}^{tree}`, size: 0 };
  const listed = await git(['ls-tree', '-l', '-z', '--full-tree', source.headCommit, '--', path], {
    cwd: source.directory,
    readOnly: true,
  });
  const record = listed.stdout.split('\0').find((line) => line.endsWith(`\t${path}`));
  if (record === undefined) return undefined;
  const [meta = ''] = record.split('\t');
  const [mode = '', type = '', oid = '', size = '-'] = meta.split(/ +/);
  return { mode, type, oid, size: size === '-' ? 0 : Number(size) };
}

/**
 * Finds `path` in the judged commit's tree. A symbolic link is followed while its target stays inside the
 * repository (at most 8 links); one that leads out — absolute, or climbing above the root — is refused, so
 * is a submodule (its tree is another repository). Reads git objects only: nothing on disk is followed.
 */
export async function resolveTreePath(source: JudgeToolSource, path: string): Promise<TreeLookup> {
  let current = path;
  for (let hop = 0; hop <= JUDGE_TOOL_LIMITS.symlinkHops; hop += 1) {
    const found = await listOne(source, current);
    if (found === undefined)
      return { ok: false, error: `${current} does not exist in the commit being judged` };
    if (found.mode === SUBMODULE_MODE)
      return { ok: false, error: `${current} is a submodule; its files are not in this repository` };
    if (found.mode !== SYMLINK_MODE) {
      if (found.type !== 'blob' && found.type !== 'tree')
        return { ok: false, error: `${current} is not a file or directory` };
      return { ok: true, entry: { path: current, type: found.type, oid: found.oid, size: found.size } };
    }
    const target = (await git(['cat-file', 'blob', found.oid], { cwd: source.directory, readOnly: true }))
      .stdout;
    const joined = target.startsWith('/') ? target : posix.join(posix.dirname(current), target);
    const confined = confineJudgePath(joined);
    if (!confined.ok || target.startsWith('/')) {
      return {
        ok: false,
        error: `${current} is a symbolic link to ${JSON.stringify(target)}, which is outside the workspace`,
      };
    }
    current = confined.path;
  }
  return {
    ok: false,
    error: `${path} is a chain of more than ${JUDGE_TOOL_LIMITS.symlinkHops} symbolic links`,
  };
}
