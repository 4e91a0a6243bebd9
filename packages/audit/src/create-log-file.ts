import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type AuditData, type AuditEvent, GENESIS_PREV, LOG_CREATE_TYPE } from './audit-event.js';
import { serializeEvent } from './event-hash.js';

/** What the genesis event records. */
export interface GenesisOptions {
  /** The repository's identity (e.g. `{ root_commits: [...], path }`), already checked and redacted. */
  readonly repository: AuditData;
  /** What created the log (`snodo@0.4.0`). */
  readonly createdBy: string;
  /** The genesis event's actor. */
  readonly actor: string;
  /** Permission bits of the new file. */
  readonly mode: number;
  /**
   * More genesis data, already checked and redacted: `resetAuditLog` records the log it replaces here
   * (`previous`, `superseded`, `reason`). Cannot override `log_id`, `repository` or `created_by`.
   */
  readonly extra?: AuditData;
  /** The new log's id, when the caller must know it first (a reset signs it). Default: 128 random bits. */
  readonly logId?: string;
}

/**
 * Creates the log file holding only its genesis event, atomically: the line is written and fsynced in a
 * temporary file which is then hard-linked into place. `link` fails if the log appeared meanwhile, so
 * concurrent creators agree on one genesis, and a crash never leaves a log without one. Returns the
 * genesis event, or `undefined` when another process created the log first.
 */
export function createLogFile(path: string, options: GenesisOptions): AuditEvent | undefined {
  const directory = dirname(path);
  mkdirSync(directory, { recursive: true });
  const body = {
    v: 1 as const,
    seq: 0,
    ts: new Date().toISOString(),
    type: LOG_CREATE_TYPE,
    actor: options.actor,
    data: {
      ...options.extra,
      log_id: options.logId ?? randomBytes(16).toString('hex'),
      repository: options.repository,
      created_by: options.createdBy,
    },
    prev: GENESIS_PREV,
  };
  const { hash, line } = serializeEvent(body);
  const temporary = join(
    directory,
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const descriptor = openSync(temporary, 'wx', options.mode);
  try {
    writeSync(descriptor, `${line}\n`);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  try {
    linkSync(temporary, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return undefined;
    if (!noHardLinks.has(code ?? '')) throw error;
    // NOTE: filesystems without hard links (some FUSE and network mounts) fall back to an exclusive
    // create: still one genesis among concurrent creators, but a crash mid-write could leave it torn.
    if (!writeExclusive(path, line, options.mode)) return undefined;
  } finally {
    unlinkSync(temporary);
  }
  syncDirectory(directory);
  return { ...body, hash };
}

const noHardLinks = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

function writeExclusive(path: string, line: string, mode: number): boolean {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'wx', mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(descriptor, `${line}\n`);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  return true;
}

/** Makes a new directory entry durable. */
export function syncDirectory(directory: string): void {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(directory, 'r');
    fsyncSync(descriptor);
  } catch {
    // NOTE: some platforms (Windows) cannot open or fsync a directory; the file's own fsync still holds.
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
