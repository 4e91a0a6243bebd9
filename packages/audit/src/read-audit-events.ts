import { type FileHandle, open } from 'node:fs/promises';
import type { AuditEvent } from './audit-event.js';
import { ChainVerifier } from './chain-verifier.js';
import { AuditChainError } from './errors/audit-chain-error.js';
import { AuditFileError } from './errors.js';
import { LineScanner } from './line-scanner.js';

/** Options of `readAuditEvents`. */
export interface ReadAuditEventsOptions {
  /** Only events of this job (`snodo audit show --job`, `snodo audit export --job`). */
  readonly job?: string;
}

/**
 * Streams the events of a log in order, verifying as it goes (constant memory): every event yielded
 * belongs to a verified prefix of the chain. At the first failure it throws `AuditChainError` (line,
 * seq, reason), so a reader never shows events past a break as if they were sound. Torn lines that were
 * recovered are skipped.
 */
export async function* readAuditEvents(
  path: string,
  options: ReadAuditEventsOptions = {},
): AsyncGenerator<AuditEvent, void, undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    throw new AuditFileError({ path, cause });
  }
  try {
    const verifier = new ChainVerifier();
    const scanner = new LineScanner(handle);
    let batch: AuditEvent[] = [];
    const onLine = (bytes: Buffer, offset: number, terminated: boolean): void => {
      if (!verifier.push(bytes, offset, terminated)) return;
      const event = verifier.acceptedEvent(bytes);
      if (options.job === undefined || event.job === options.job) batch.push(event);
    };
    let more = true;
    while (more && verifier.failure === undefined) {
      more = await scanner.next(onLine);
      // A line held back as a possible torn write is settled by the next one; yield what is settled.
      const ready = batch;
      batch = [];
      yield* ready;
    }
    verifier.finish(scanner.overlongOffset);
    const failure = verifier.failure;
    if (failure !== undefined) throw new AuditChainError({ path, failure });
  } finally {
    await handle.close();
  }
}
