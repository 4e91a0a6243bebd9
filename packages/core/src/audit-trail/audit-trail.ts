import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  type AuditEvent,
  type AuditLog,
  formatCheckpointTrailer,
  openAuditLog,
  type SignedCheckpoint,
  type SigningKey,
} from '@snodo/audit';
import { git } from '../git/index.js';
import { auditLogPath, checkpointStorePath } from './audit-paths.js';
import { appendCheckpointToRef } from './checkpoint-ref.js';
import { loadOrCreateSigningKey } from './signing-key-store.js';

/** A signed checkpoint and the trailer line that carries it in a merge commit. */
export interface AuditCheckpoint {
  readonly checkpoint: SignedCheckpoint;
  readonly trailer: string;
}

async function repositoryIdentity(repositoryRoot: string): Promise<Record<string, unknown>> {
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
 * three places: `$SNODO_HOME/checkpoints/`, `refs/snodo/audit`, and the trailer of snodo's merge commits.
 */
export class AuditTrail {
  private constructor(
    private readonly log: AuditLog,
    private readonly key: SigningKey,
    private readonly repositoryRoot: string,
    private readonly snodoHome: string,
  ) {}

  /** Opens (creating on first use) `.snodo/audit.log`; refuses a chain that does not verify. */
  static async open(options: {
    repositoryRoot: string;
    snodoHome: string;
    actor: string;
    createdBy: string;
    secrets?: readonly string[];
  }): Promise<AuditTrail> {
    const path = auditLogPath(options.repositoryRoot);
    mkdirSync(dirname(path), { recursive: true });
    const key = loadOrCreateSigningKey(options.snodoHome);
    const log = await openAuditLog(path, {
      repository: await repositoryIdentity(options.repositoryRoot),
      createdBy: options.createdBy,
      actor: options.actor,
      secrets: options.secrets ?? [],
    });
    return new AuditTrail(log, key, options.repositoryRoot, options.snodoHome);
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
   * Signs `{log id, size, head hash}` and stores the checkpoint in `$SNODO_HOME/checkpoints/` and (unless
   * `ref: false`) in `refs/snodo/audit`. Returns it with the trailer line for a merge commit.
   */
  async checkpoint(options: { ref?: boolean } = {}): Promise<AuditCheckpoint> {
    const store = checkpointStorePath(this.snodoHome, this.log.logId);
    mkdirSync(dirname(store), { recursive: true, mode: 0o700 });
    const checkpoint = await this.log.checkpoint(this.key, { store });
    if (options.ref !== false) await appendCheckpointToRef(this.repositoryRoot, checkpoint);
    return { checkpoint, trailer: formatCheckpointTrailer(checkpoint) };
  }

  close(): Promise<void> {
    return this.log.close();
  }
}
