import { compareTrees, snapshotTree } from '../conformance/tree-snapshot.js';
import { defineObligation } from './define-obligation.js';
import type { ObligationScope } from './obligation-scope.js';

function pathProblem(proposalPath: unknown): string | undefined {
  if (typeof proposalPath !== 'string' || proposalPath === '') return 'is not a non-empty string';
  if (proposalPath.startsWith('/') || /^[A-Za-z]:/.test(proposalPath)) return 'is absolute';
  if (proposalPath.includes('\\') || proposalPath.includes('\0')) return 'has a backslash or NUL';
  const segments = proposalPath.split('/');
  if (segments.some((segment) => segment === '..' || segment === '.' || segment === '')) {
    return 'has an empty, "." or ".." segment';
  }
  const first = segments[0]?.toLowerCase();
  if (first === '.git' || first === '.snodo') return 'is inside .git or .snodo';
  return undefined;
}

/** An engine-managed coder returns valid proposals and leaves the worktree and branch alone. */
export const engineManagedProposalsOnly = defineObligation(
  'engine-managed-proposals-only',
  async (scope: ObligationScope) => {
    await scope.withRun({ configureBinary: false }, async (run) => {
      const treeBefore = snapshotTree(run.workspace);
      const result = await scope.expectSuccess(scope.doRun(run), 'an ordinary run');
      scope.check(
        result.status === 'changed' || result.status === 'no-changes',
        `the status is ${JSON.stringify(result.status)}.`,
      );
      const proposals = result.proposals ?? [];
      scope.check(Array.isArray(proposals), 'result.proposals is not an array.');
      scope.check(
        result.status === 'no-changes' || proposals.length > 0,
        'the status is "changed" but there are no proposals.',
      );
      for (const proposal of proposals) {
        const problem = pathProblem(proposal.path);
        scope.check(problem === undefined, `proposal path ${JSON.stringify(proposal.path)} ${problem}.`);
        scope.check(
          proposal.action === 'write' || proposal.action === 'delete',
          `proposal ${proposal.path} has action ${JSON.stringify(proposal.action)}.`,
        );
        scope.check(
          proposal.action === 'delete' || typeof proposal.content === 'string',
          `proposal ${proposal.path} writes but has no content.`,
        );
      }
      const proposed = [...new Set(proposals.map((proposal) => proposal.path))].sort();
      scope.check(
        JSON.stringify(result.changedFiles) === JSON.stringify(proposed),
        `result.changedFiles ${JSON.stringify(result.changedFiles)} is not the sorted list of proposed paths ${JSON.stringify(proposed)}.`,
      );
      scope.check(
        result.commit === undefined,
        `an engine-managed coder returned commit ${result.commit}; core commits.`,
      );
      const changes = compareTrees(treeBefore, snapshotTree(run.workspace));
      scope.check(changes.length === 0, `the coder wrote to the worktree itself: ${changes.join(', ')}.`);
      scope.check(run.head() === run.startCommit, 'the branch moved: the coder committed by itself.');
    });
  },
);
