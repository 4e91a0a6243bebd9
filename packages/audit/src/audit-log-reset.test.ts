import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditData } from './audit-event.js';
import { type AuditLogPrevious, checkResetSignature, resetAuditLog } from './audit-log-reset.js';
import { AuditWriteError } from './errors/audit-write-error.js';
import { AuditOptionsError } from './errors.js';
import { openAuditLog } from './open-audit-log.js';
import { readLogGenesis } from './read-log-genesis.js';
import { createSigningKey } from './signing-key.js';
import { useTemporaryDirectory } from './testing/temporary-directory.js';
import { testRepository } from './testing/test-repository.js';
import { writeTestLog } from './testing/write-test-log.js';
import { verifyAuditLog } from './verify-audit-log.js';

describe('resetAuditLog', () => {
  const directory = useTemporaryDirectory();
  const logPath = (): string => join(directory(), 'audit.log');
  const archivePath = (): string => join(directory(), 'audit.old.log');

  async function oldHead(): Promise<AuditLogPrevious> {
    const result = await verifyAuditLog(logPath());
    return {
      log_id: result.logId!,
      size: result.events,
      head_hash: result.headHash!,
      source: 'log',
      archived_as: '.snodo/audit.old.log',
    };
  }

  it('keeps the old log byte for byte and starts one whose signed genesis names the old head', async () => {
    await writeTestLog(logPath(), 6);
    const before = readFileSync(logPath());
    const previous = await oldHead();
    const key = createSigningKey(join(directory(), 'keys'));
    const genesis = await resetAuditLog(logPath(), {
      archivePath: archivePath(),
      reset: { previous, reason: 'the disk was restored from a backup', superseded: [] },
      repository: testRepository,
      createdBy: 'snodo@test',
      actor: 'human:ana',
      key,
    });
    expect(readFileSync(archivePath())).toEqual(before);
    expect(genesis).toMatchObject({ seq: 0, type: 'log-create', actor: 'human:ana' });
    expect(genesis.data).toMatchObject({ previous, reason: 'the disk was restored from a backup' });
    expect(genesis.data.log_id).not.toBe(previous.log_id);

    const read = readLogGenesis(logPath());
    expect(read).toMatchObject({ logId: genesis.data.log_id, previous, superseded: [] });
    expect(checkResetSignature(genesis.data, [key.publicKey])).toBeUndefined();
    const other = createSigningKey(join(directory(), 'other-keys'));
    expect(checkResetSignature(genesis.data, [other.publicKey])).toContain('not by this machine');
    // Appends continue on the new log as on any other.
    const log = await openAuditLog(logPath());
    await log.append({ type: 'step-run', data: {} });
    await log.close();
    expect(await verifyAuditLog(logPath())).toMatchObject({ ok: true, events: 2 });
  });

  it('is honoured only with its signature: a genesis that claims more of the old log does not verify', async () => {
    await writeTestLog(logPath(), 3);
    const key = createSigningKey(join(directory(), 'keys'));
    const genesis = await resetAuditLog(logPath(), {
      archivePath: archivePath(),
      reset: { previous: await oldHead(), reason: 'new start' },
      repository: testRepository,
      createdBy: 'snodo@test',
      actor: 'human:ana',
      key,
    });
    const forged: AuditData = {
      ...genesis.data,
      previous: { ...(genesis.data.previous as Record<string, never>), size: 1_000_000 },
    };
    expect(checkResetSignature(forged, [key.publicKey])).toBe('the reset signature does not verify');
    const unsigned: AuditData = { log_id: genesis.data.log_id as string, previous: forged.previous! };
    expect(checkResetSignature(unsigned, [key.publicKey])).toContain('no reset signature');
  });

  it('makes a handle still open on the old log refuse to append', async () => {
    await writeTestLog(logPath(), 2);
    const stale = await openAuditLog(logPath());
    await resetAuditLog(logPath(), {
      archivePath: archivePath(),
      reset: { previous: await oldHead(), reason: 'new start' },
      repository: testRepository,
      createdBy: 'snodo@test',
      actor: 'human:ana',
      key: createSigningKey(join(directory(), 'keys')),
    });
    await expect(stale.append({ type: 'step-run', data: {} })).rejects.toSatisfy(
      (error: unknown) => AuditWriteError.isInstance(error) && error.sticky,
    );
    await stale.close();
  });

  it('refuses an empty reason and an archive path that exists, changing nothing', async () => {
    await writeTestLog(logPath(), 2);
    const before = readFileSync(logPath());
    const options = {
      archivePath: archivePath(),
      reset: { previous: await oldHead(), reason: '  ' },
      repository: testRepository,
      createdBy: 'snodo@test',
      actor: 'human:ana',
      key: createSigningKey(join(directory(), 'keys')),
    };
    await expect(resetAuditLog(logPath(), options)).rejects.toSatisfy(AuditOptionsError.isInstance);
    writeFileSync(archivePath(), 'an older copy\n');
    await expect(
      resetAuditLog(logPath(), { ...options, reset: { ...options.reset, reason: 'again' } }),
    ).rejects.toSatisfy(AuditWriteError.isInstance);
    expect(readFileSync(logPath())).toEqual(before);
    expect(readFileSync(archivePath(), 'utf8')).toBe('an older copy\n');
  });
});
