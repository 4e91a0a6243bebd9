import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CoderV1FileProposal } from '@snodo/coder-sdk';
import { resolveWritePath } from './resolve-write-path.js';

/**
 * Writes an engine-managed coder's proposals into the worktree. Every path is checked first; if any is
 * refused, nothing at all is written. Returns the written paths, sorted.
 */
export function applyFileProposals(root: string, proposals: readonly CoderV1FileProposal[]): string[] {
  const resolved = proposals.map((proposal) => ({ proposal, target: resolveWritePath(root, proposal.path) }));
  for (const { proposal, target } of resolved) {
    if (proposal.action === 'delete') {
      rmSync(target, { force: true });
    } else {
      mkdirSync(dirname(target), { recursive: true });
      // NOTE: 'w' follows a symlink created after the check; no coder process runs while core writes,
      // so nothing can plant one in between.
      writeFileSync(target, proposal.content ?? '', { flag: 'w' });
    }
  }
  return [
    ...new Set(
      proposals.map((proposal) =>
        proposal.path
          .split('/')
          .filter((s) => s && s !== '.')
          .join('/'),
      ),
    ),
  ].sort();
}
