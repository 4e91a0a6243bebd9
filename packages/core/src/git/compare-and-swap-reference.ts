import { git } from './git.js';
import { resolveCommit } from './rev-parse.js';

/**
 * Move `reference` from `expected` to `next` only if it still points at `expected` (`git update-ref <ref>
 * <new> <old>`), so two writers can never lose each other's update. `expected: ''` means the ref must not
 * exist yet (create-only). Returns `false` when the ref had moved (or already existed); the caller re-reads
 * and retries or refuses. Throws `GitCommandError` for any other failure.
 */
export async function compareAndSwapReference(options: {
  cwd: string;
  reference: string;
  next: string;
  expected: string;
  reflogMessage: string;
}): Promise<boolean> {
  const args = ['update-ref', '-m', options.reflogMessage, options.reference, options.next, options.expected];
  const result = await git(args, { cwd: options.cwd, allowFailure: true });
  if (result.exitCode === 0) return true;
  const actual = (await resolveCommit(options.cwd, options.reference)) ?? '';
  if (actual !== options.expected) return false;
  // The ref is where we expected and the update still failed (a stale ref lock, permissions): report it.
  await git(args, { cwd: options.cwd });
  return true;
}
