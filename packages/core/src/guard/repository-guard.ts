import { GuardedFiles, type GuardedPath } from './guarded-files.js';
import { type GuardScope, guardedPaths } from './guarded-paths.js';
import { RepositoryTamperedError, type TamperFinding } from './repository-tampered-error.js';

/** What one part of the guard found since its snapshot, and how to put it back. */
export interface GuardCheck {
  readonly findings: readonly TamperFinding[];
  restore(): Promise<void>;
}

/** A snapshot that can later say what changed: the guarded files, the audit trail's anchors. */
export interface GuardSnapshot {
  check(): Promise<GuardCheck>;
}

/** Takes one more snapshot beside the files' (the audit trail's, from `audit-trail`). */
export type GuardSnapshotTaker = (scope: GuardScope) => Promise<GuardSnapshot>;

async function takeFilesSnapshot(
  scope: GuardScope,
  paths: Promise<readonly GuardedPath[]> | undefined,
): Promise<GuardSnapshot> {
  const files = await GuardedFiles.take(await (paths ?? guardedPaths(scope)));
  return {
    async check() {
      const changes = await files.changes();
      return {
        findings: changes.map((change) => ({ what: change.label, change: change.change, path: change.path })),
        restore: () => files.restore(changes),
      };
    },
  };
}

/**
 * The second line of containment (SPEC §12), which also works unsandboxed: a snapshot taken before code the
 * coder could have written runs (a coder attempt, a phase of command gates) and checked right after, before
 * snodo runs git in the user's repository again. Any change is put back where possible and the job halts
 * with `RepositoryTamperedError` (blocker `repository_tampered`).
 */
export class RepositoryGuard {
  private constructor(private readonly snapshots: readonly GuardSnapshot[]) {}

  /**
   * Snapshots the guarded files and whatever `extra` takers add (the audit trail). `paths`, when given, is
   * the list `guardedPaths(scope)` computed once for the job (finding a `core.hooksPath` costs git calls).
   */
  static async take(
    scope: GuardScope,
    extra: readonly GuardSnapshotTaker[] = [],
    paths?: Promise<readonly GuardedPath[]>,
  ): Promise<RepositoryGuard> {
    return new RepositoryGuard(
      await Promise.all([takeFilesSnapshot(scope, paths), ...extra.map((take) => take(scope))]),
    );
  }

  /**
   * Compares with the snapshot; when anything changed, restores what can be restored and throws
   * `RepositoryTamperedError` naming every change. `during` names the step for the message.
   */
  async verify(during: string): Promise<void> {
    const checks = await Promise.all(this.snapshots.map((snapshot) => snapshot.check()));
    const findings = checks.flatMap((check) => check.findings);
    if (findings.length === 0) return;
    let restored = true;
    for (const check of checks) {
      if (check.findings.length === 0) continue;
      try {
        await check.restore();
      } catch {
        restored = false;
      }
    }
    throw new RepositoryTamperedError({ findings, during, restored });
  }
}
