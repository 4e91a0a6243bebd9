import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * The directory under the worktrees directory that holds one repository's task worktrees: a readable slug
 * of the repository's folder name plus a hash of its git common directory, so two repositories named
 * alike never share a folder and every worktree of one repository maps to the same one.
 */
export function projectDirectoryName(gitCommonDirectory: string): string {
  const absolute = path.resolve(gitCommonDirectory);
  // `<repo>/.git` → `repo`; a bare `repo.git` → `repo`.
  const folder =
    path.basename(absolute) === '.git' ? path.basename(path.dirname(absolute)) : path.basename(absolute);
  const slug =
    folder
      .replace(/\.git$/, '')
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 32)
      .replace(/-+$/, '') || 'repository';
  const hash = createHash('sha256').update(absolute).digest('hex').slice(0, 10);
  return `${slug}-${hash}`;
}
