import path from 'node:path';
import type { GateFinding } from '../gate-verdict.js';
import type { Predicate } from './predicate.js';

/** The gate id of the built-in guard against symbolic links that leave the repository. */
export const SYMLINK_GUARD_ID = 'workspace_symlink_guard';

/** Why a link's target is refused, or `undefined` when it stays inside the repository's files. */
function escapes(linkPath: string, target: string): string | undefined {
  if (target === '') return 'it has an empty target';
  if (target.includes('\0')) return 'its target holds a NUL byte';
  if (path.posix.isAbsolute(target) || /^[A-Za-z]:[\\/]/.test(target) || target.startsWith('\\')) {
    return `it points to the absolute path ${target}`;
  }
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(linkPath), target));
  if (resolved === '..' || resolved.startsWith('../')) return `${target} leads out of the repository`;
  const first = resolved.split('/')[0]?.toLowerCase();
  if (first === '.git' || first === '.snodo') return `${target} leads into ${first}/`;
  return undefined;
}

/**
 * Built-in and non-removable: the change may not add or modify a symbolic link that points outside the
 * repository's files (an absolute path such as `/etc/passwd`, a `../` escape) or into `.git/` or `.snodo/`.
 * Landed, such a link makes the user's checkout, build or editor read or write through it.
 */
export const workspaceSymlinkGuard: Predicate = (context) => {
  const findings: GateFinding[] = [];
  for (const link of context.diff.symlinks) {
    const reason = escapes(link.path, link.target);
    if (reason !== undefined)
      findings.push({ message: `${link.path} is a symbolic link: ${reason}`, path: link.path });
  }
  if (findings.length === 0) {
    return { passed: true, justification: 'No symbolic link in the change leaves the repository.' };
  }
  return {
    passed: false,
    justification:
      `The change adds symbolic links that leave the repository (${findings.map((finding) => finding.path).join(', ')}); ` +
      'snodo never lands them. Replace them with real files or links to paths inside the repository.',
    findings,
    evidence: { symlinks: findings.map((finding) => finding.path ?? '') },
  };
};
