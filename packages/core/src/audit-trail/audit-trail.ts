import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  AuditChainError,
  type AuditEvent,
  type AuditLog,
  formatCheckpointTrailer,
  openAuditLog,
  type SignedCheckpoint,
  type SigningKey,
} from '@snodo/audit';
import { AuditLogBehindCheckpointError } from '../errors.js';
import { git } from '../git/index.js';
import { auditLogPath, repositoryCheckpointStorePath } from './audit-paths.js';
import { pushAuditRef } from './audit-remote.js';
import { checkAnchorsBeforeOpen } from './check-anchors-before-open.js';
import { appendCheckpointToRef } from './checkpoint-ref.js';
import { type AuditResetOptions, type AuditResetResult, resetAuditTrail } from './reset-audit-trail.js';
import { loadOrCreateSigningKey } from './signing-key-store.js';

/** A signed checkpoint, the trailer line that carries it in a merge commit, and what did not work. */
export interface AuditCheckpoint {
  readonly checkpoint: SignedCheckpoint;
  readonly trailer: string;
  /** Problems that did not fail the checkpoint (a push to `audit.remote` that failed), to show the user. */
  readonly warnings: readonly string[];
}

/** Options of `AuditTrail.open`. */
export interface AuditTrailOptions {
  readonly repositoryRoot: string;
  readonly snodoHome: string;
  readonly actor: string;
  readonly createdBy: string;
  readonly secrets?: readonly string[];
  /** The repository's git common directory; names its checkpoint store. Default `<repositoryRoot>/.git`. */
  readonly gitCommonDirectory?: string;
  /** `audit.remote`: a git remote `checkpoint()` pushes `refs/snodo/audit` to. */
  readonly remote?: string | undefined;
}

/** The identity a new log's genesis event records: the path and the root commits. */
export async function repositoryIdentity(repositoryRoot: string): Promise<Record<string, unknown>> {
  const roots = await git(['rev-list', '--max-parents=0', 'HEAD'], {
    cwd: repositoryRoot,
    allowFailure: true,
    readOnly: true,
  });
  return {
    path: repositoryRoot,
    root_commits: roots.exitCode === 0 ? roots.stdout.split('\n').filter(Boolean).sort() : [],
  };
}

/**
 * The audit log of one repository as the pipeline uses it: every decision appended as a chained event
 * (secrets masked first), flushed to disk at job boundaries, and anchored by signed checkpoints kept in
 * `$SNODO_HOME/checkpoints/<project>/`, `refs/snodo/audit` (pushed to `audit.remote` when set), and the
 * trailer of snodo's merge commits.
 */
export class AuditTrail {
  private constructor(
    private readonly log: AuditLog,
    private readonly key: SigningKey,
    private readonly options: AuditTrailOptions & { gitCommonDirectory: string },
  ) {}

  /**
   * Opens `.snodo/audit.log`, creating it only when this repository has no anchors yet. Before anything
   * runs it refuses a log that is missing while anchors exist (`AuditLogMissingError`), one whose id the
   * anchors do not name (`AuditLogReplacedError`), one behind the newest checkpoint in the store or in
   * `refs/snodo/audit` (`AuditLogBehindCheckpointError`), and a chain that does not verify
   * (`AuditChainError`).
   */
  static async open(options: AuditTrailOptions): Promise<AuditTrail> {
    const path = auditLogPath(options.repositoryRoot);
    mkdirSync(dirname(path), { recursive: true });
    const gitCommonDirectory = options.gitCommonDirectory ?? join(options.repositoryRoot, '.git');
    const key = loadOrCreateSigningKey(options.snodoHome);
    const checkpoints = await checkAnchorsBeforeOpen({
      logPath: path,
      repositoryRoot: options.repositoryRoot,
      gitCommonDirectory,
      snodoHome: options.snodoHome,
      key,
    });
    let log: AuditLog;
    try {
      log = await openAuditLog(path, {
        // Only a new log records the identity (its genesis event); an existing one spares the git process.
        ...(existsSync(path) ? {} : { repository: await repositoryIdentity(options.repositoryRoot) }),
        createdBy: options.createdBy,
        actor: options.actor,
        secrets: options.secrets ?? [],
        checkpoints,
        publicKey: key.publicKey,
      });
    } catch (error) {
      const code = AuditChainError.isInstance(error) ? error.failure.code : undefined;
      if (code === 'E_TRUNCATED' || code === 'E_CKPT_MISMATCH' || code === 'E_LOG_ID') {
        throw new AuditLogBehindCheckpointError({
          path,
          failure: (error as AuditChainError).failure,
          cause: error,
        });
      }
      throw error;
    }
    return new AuditTrail(log, key, { ...options, gitCommonDirectory });
  }

  /**
   * `snodo audit reset --reason`: keeps the current log as `.snodo/audit.<id>.log` and starts a new one whose
   * signed genesis names the old head, the reason and the actor (see `resetAuditTrail`).
   */
  static reset(options: AuditResetOptions): Promise<AuditResetResult> {
    return resetAuditTrail(options);
  }

  /** The log's random id, as named in its genesis event. */
  get logId(): string {
    return this.log.logId;
  }

  /** Appends one event; `data` may hold strings, integers, booleans, null, arrays and objects only. */
  append(
    type: string,
    data: Record<string, unknown>,
    options: { job?: string; actor?: string } = {},
  ): Promise<AuditEvent> {
    return this.log.append({
      type,
      data,
      ...(options.job ? { job: options.job } : {}),
      ...(options.actor ? { actor: options.actor } : {}),
    });
  }

  /** Masks this value in every later event (a key injected into a coder's environment). */
  addSecret(value: string): void {
    this.log.addSecret(value);
  }

  /** Flushes the log to disk: before a merge moves the base and at the end of a job. */
  sync(): Promise<void> {
    return this.log.sync();
  }

  /**
   * Signs `{log id, size, head hash}` and stores the checkpoint in this repository's store and (unless
   * `ref: false`) in `refs/snodo/audit`, then pushes that ref to `audit.remote` when set. Returns it with
   * the trailer line for a merge commit; a failed push is a warning, never a failure.
   */
  async checkpoint(options: { ref?: boolean } = {}): Promise<AuditCheckpoint> {
    const store = repositoryCheckpointStorePath(
      this.options.snodoHome,
      this.options.gitCommonDirectory,
      this.log.logId,
    );
    mkdirSync(dirname(dirname(store)), { recursive: true, mode: 0o700 });
    mkdirSync(dirname(store), { recursive: true, mode: 0o700 });
    const checkpoint = await this.log.checkpoint(this.key, { store });
    const warnings: string[] = [];
    if (options.ref !== false) {
      await appendCheckpointToRef(this.options.repositoryRoot, checkpoint);
      if (this.options.remote !== undefined) {
        const warning = await pushAuditRef(this.options.repositoryRoot, this.options.remote);
        if (warning !== undefined) warnings.push(warning);
      }
    }
    return { checkpoint, trailer: formatCheckpointTrailer(checkpoint), warnings };
  }

  close(): Promise<void> {
    return this.log.close();
  }
}
