import { canonicalJson, formatCheckpointTrailer, type SignedCheckpoint } from '@snodo/audit';
import { fallbackIdentity, git, identityEnvironment } from '../git/index.js';
import { AUDIT_CHECKPOINT_REF } from './audit-paths.js';

const zeroCommit = '0000000000000000000000000000000000000000';

/**
 * Appends a checkpoint to `refs/snodo/audit`: a commit whose tree holds `checkpoint.json` and whose parent
 * is the previous checkpoint commit. The ref moves by compare-and-swap, retried when another snodo process
 * moved it first, so no checkpoint is lost. Refs are shared by every worktree, so a coder could move this
 * one too; the signatures, the merge-commit trailers and a pushed copy are what make it trustworthy.
 */
export async function appendCheckpointToRef(
  repositoryRoot: string,
  checkpoint: SignedCheckpoint,
): Promise<string> {
  const blob = (
    await git(['hash-object', '-w', '--stdin'], {
      cwd: repositoryRoot,
      input: `${canonicalJson(checkpoint)}\n`,
    })
  ).stdout.trim();
  const tree = (
    await git(['mktree'], { cwd: repositoryRoot, input: `100644 blob ${blob}\tcheckpoint.json\n` })
  ).stdout.trim();
  const env = identityEnvironment(fallbackIdentity);
  for (let tries = 0; ; tries += 1) {
    const previous = await git(['rev-parse', '--verify', '--quiet', `${AUDIT_CHECKPOINT_REF}^{commit}`], {
      cwd: repositoryRoot,
      allowFailure: true,
    });
    const parent = previous.exitCode === 0 ? previous.stdout.trim() : undefined;
    const commit = (
      await git(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], {
        cwd: repositoryRoot,
        env,
        input: `snodo audit checkpoint ${checkpoint.size}\n\n${formatCheckpointTrailer(checkpoint)}\n`,
      })
    ).stdout.trim();
    const update = await git(['update-ref', AUDIT_CHECKPOINT_REF, commit, parent ?? zeroCommit], {
      cwd: repositoryRoot,
      allowFailure: true,
    });
    if (update.exitCode === 0) return commit;
    if (tries >= 5) {
      throw new Error(`Could not update ${AUDIT_CHECKPOINT_REF}: ${update.stderr || 'the ref kept moving'}`);
    }
  }
}

/** Every checkpoint recorded in `refs/snodo/audit`, oldest first (empty when the ref does not exist). */
export async function readCheckpointsFromRef(repositoryRoot: string): Promise<SignedCheckpoint[]> {
  const log = await git(['log', '--format=%H', AUDIT_CHECKPOINT_REF, '--'], {
    cwd: repositoryRoot,
    allowFailure: true,
    readOnly: true,
  });
  if (log.exitCode !== 0) return [];
  const checkpoints: SignedCheckpoint[] = [];
  for (const commit of log.stdout.split('\n').filter(Boolean).reverse()) {
    const shown = await git(['show', `${commit}:checkpoint.json`], {
      cwd: repositoryRoot,
      allowFailure: true,
      readOnly: true,
    });
    if (shown.exitCode !== 0) continue;
    try {
      checkpoints.push(JSON.parse(shown.stdout) as SignedCheckpoint);
    } catch {
      // A damaged checkpoint commit is reported by verification through the missing anchor, not here.
    }
  }
  return checkpoints;
}
