import { SnodoError } from '@snodo/foundation';

const marker = 'snodo.error.REPOSITORY_TAMPERED';

/** One thing a coder or a command gate changed that no step of a run may change. */
export interface TamperFinding {
  /** What it is, in a user's words ("the repository's git hooks", "the audit log"). */
  readonly what: string;
  /** The file or ref concerned, when there is one. */
  readonly path?: string;
  /** What happened to it ("added", "deleted", "lost 12 events (size 40 → 28)"). */
  readonly change: string;
}

/** A finding as one line: `the repository's git hooks: added .git/hooks/post-commit`. */
export function describeTamperFinding(finding: TamperFinding): string {
  return `${finding.what}: ${finding.change}${finding.path === undefined ? '' : ` ${finding.path}`}`;
}

/**
 * Code the job ran (the coder, a command gate) changed what snodo guards: git config, hooks or excludes of
 * the user's repository, the user's global git config, the protocol, snodo's config or key, or the audit
 * trail beyond appends. The job halts as blocker `repository_tampered` and never lands; what could be put
 * back was put back before this was thrown.
 */
export class RepositoryTamperedError extends SnodoError<'REPOSITORY_TAMPERED'> {
  /** Every change found, in path order. */
  readonly findings: readonly TamperFinding[];
  /** Which step ran when it happened ("coder attempt 1", "post-execute command gates"). */
  readonly during: string;

  constructor(options: { findings: readonly TamperFinding[]; during: string; restored: boolean }) {
    const listed = options.findings.slice(0, 8).map(describeTamperFinding).join('; ');
    const more = options.findings.length > 8 ? `; and ${options.findings.length - 8} more` : '';
    super('REPOSITORY_TAMPERED', {
      message:
        `During ${options.during}, something changed what no run may change: ${listed}${more}. ` +
        `The job is halted and will not land${options.restored ? '; snodo put back what it could' : ''}. ` +
        'Inspect the workspace and the transcript (`snodo logs <job>`), and run the coder in a sandbox ' +
        '(`execution.sandbox: required`, install bubblewrap) so it cannot happen.',
    });
    this.name = 'RepositoryTamperedError';
    SnodoError.mark(this, marker);
    this.findings = options.findings;
    this.during = options.during;
  }

  static override isInstance(value: unknown): value is RepositoryTamperedError {
    return SnodoError.hasMarker(value, marker);
  }
}
