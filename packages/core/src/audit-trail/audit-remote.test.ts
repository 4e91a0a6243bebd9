import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { openAuditLog } from '@snodo/audit';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyRepositoryAudit } from '../tasks/audit-tasks.js';
import { createPipelineFixture, type PipelineFixture } from '../testing/pipeline-fixture.js';
import { auditLogPath } from './audit-paths.js';
import { AuditTrail } from './audit-trail.js';

let fixture: PipelineFixture;
afterEach(() => fixture?.cleanup());

const slow = { timeout: 120_000 };

/** A repository whose config names `backup`, a bare repository on disk, as `audit.remote`. */
function withBackupRemote(): string {
  fixture = createPipelineFixture({ config: 'audit:\n  remote: backup\n' });
  const bare = join(fixture.snodoHome, '..', 'backup.git');
  execFileSync('git', ['init', '--quiet', '--bare', bare]);
  fixture.git(['remote', 'add', 'backup', bare]);
  return bare;
}

async function checkpointWithRemote(remote: string): Promise<readonly string[]> {
  const trail = await AuditTrail.open({
    repositoryRoot: fixture.root,
    snodoHome: fixture.snodoHome,
    actor: 'tester',
    createdBy: 'snodo@test',
    remote,
  });
  try {
    await trail.append('job-note', { note: 'anchored remotely' });
    return (await trail.checkpoint()).warnings;
  } finally {
    await trail.close();
  }
}

function verify() {
  return verifyRepositoryAudit({
    cwd: fixture.root,
    env: fixture.env,
    homeDirectory: fixture.env.HOME as string,
  });
}

describe('audit.remote', () => {
  it('pushes refs/snodo/audit at a checkpoint, and verify checks the fetched copy', slow, async () => {
    const bare = withBackupRemote();
    await fixture.run({ task: 'first', mock: true });
    expect(await checkpointWithRemote('backup')).toEqual([]);
    const remoteTip = execFileSync('git', ['--git-dir', bare, 'rev-parse', 'refs/snodo/audit'], {
      encoding: 'utf8',
    }).trim();
    expect(remoteTip).toBe(fixture.git(['rev-parse', 'refs/snodo/audit']));

    const intact = await verify();
    expect(intact.result.ok).toBe(true);
    expect(intact.checkpoints.remote).toBeGreaterThan(0);
    expect(fixture.git(['rev-parse', 'refs/snodo/remotes/backup/audit'])).toBe(remoteTip);
    expect(intact.notChecked.join('\n')).not.toContain('remote copies');

    // Everything local is cut or deleted; the remote copy still says how long the log was.
    const lines = readFileSync(auditLogPath(fixture.root), 'utf8').split('\n').filter(Boolean);
    truncateSync(auditLogPath(fixture.root), Buffer.byteLength(`${lines.slice(0, -4).join('\n')}\n`));
    rmSync(join(fixture.snodoHome, 'checkpoints'), { recursive: true, force: true });
    fixture.git(['update-ref', '-d', 'refs/snodo/audit']);
    fixture.git(['update-ref', '-d', 'refs/snodo/remotes/backup/audit']);
    const cut = await verify();
    expect(cut.result.failure?.code).toBe('E_TRUNCATED');
  });

  it('a remote anchor naming another log id is E_LOG_REPLACED', slow, async () => {
    withBackupRemote();
    await fixture.run({ task: 'first', mock: true });
    await checkpointWithRemote('backup');
    rmSync(auditLogPath(fixture.root));
    rmSync(join(fixture.snodoHome, 'checkpoints'), { recursive: true, force: true });
    fixture.git(['update-ref', '-d', 'refs/snodo/audit']);
    const fresh = await openAuditLog(auditLogPath(fixture.root), { repository: { path: fixture.root } });
    await fresh.close();
    const replaced = await verify();
    expect(replaced.result.failure?.code).toBe('E_LOG_REPLACED');
    expect(replaced.result.failure?.reason).toContain("backup's refs/snodo/audit");
  });

  it('a failed push is a warning, never a failure', slow, async () => {
    withBackupRemote();
    await fixture.run({ task: 'first', mock: true });
    fixture.git(['remote', 'add', 'gone', join(fixture.snodoHome, '..', 'no-such-repository.git')]);
    const [pushFailed] = await checkpointWithRemote('gone');
    expect(pushFailed).toContain('Could not push refs/snodo/audit to gone');
    expect(pushFailed).toContain('git push gone refs/snodo/audit');
    const [notRemote] = await checkpointWithRemote('nowhere');
    expect(notRemote).toContain('not a remote of this repository');
    expect((await verify()).result.ok).toBe(true);
  });
});
