import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJobState } from '../jobs/index.js';
import { verifyRepositoryAudit } from '../tasks/index.js';
import {
  attackThroughTheTests,
  commitEscapingLinks,
  forgeTheProtocolCache,
  hideTheUsersFiles,
  leaveAGrandchild,
  moveTheBase,
  plantWorkspaceHooks,
  poisonTheGlobalGitConfig,
  stealTheKeys,
  wipeTheAuditTrail,
} from '../testing/attacks.js';
import {
  CANARY_API_KEY,
  createHostileFixture,
  type HostileFixture,
  noProcessMatches,
  protocolCacheFiles,
} from '../testing/hostile-coder.js';

// Issue 11, second line of containment: with `execution.sandbox: off` the coder runs with the user's full
// powers, so the escapes succeed, but snodo sees them afterwards — the job halts, says what changed, puts
// back what it can, and never lands.

let hostile: HostileFixture;
afterEach(() => hostile?.fixture.cleanup());

function setUp(): HostileFixture {
  hostile = createHostileFixture({ sandbox: 'off' });
  return hostile;
}

describe('detected without a sandbox (execution.sandbox: off)', { timeout: 60_000 }, () => {
  it('records that there was no sandbox', async () => {
    const { fixture } = setUp();
    const result = await hostile.honestRun();
    expect(readJobState(fixture.root, result.jobId).sandbox).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('execution.sandbox: off'),
    });
  });

  it('a base moved behind snodo’s back is not landed on: the job escalates naming the foreign commit', async () => {
    const { fixture } = setUp();
    hostile.arm(moveTheBase);
    const result = await hostile.run();
    expect(hostile.transcript(result.jobId)).toContain('MOVED TRUNK');
    const foreign = fixture.git(['log', '-1', '--format=%H', 'trunk']);
    expect(result).toMatchObject({ status: 'halted', outcome: 'escalated' });
    expect(result.summary).toContain('no snodo landing made');
    expect(result.summary).toContain(foreign.slice(0, 12));
    expect(result.summary).toContain('helpful cleanup');
    // snodo did not merge its branch on top of the backdoor.
    expect(fixture.git(['log', '-1', '--format=%s', 'trunk'])).toBe('helpful cleanup');
  });

  it('a cut audit log and deleted anchors halt the job as repository_tampered, and verify then fails', async () => {
    const { fixture } = setUp();
    await hostile.honestRun();
    hostile.arm(wipeTheAuditTrail);
    const result = await hostile.run();
    expect(hostile.transcript(result.jobId)).toContain('TRUNCATED THE LOG');
    expect(result).toMatchObject({ status: 'halted', outcome: 'repository_tampered' });
    expect(result.summary).toContain('audit log');
    expect(result.summary).toContain('refs/snodo/audit');
    // Before: `snodo audit verify` said intact. The anchors snodo put back now prove the cut.
    const verification = await verifyRepositoryAudit({ cwd: fixture.root, env: fixture.env });
    expect(verification.result.ok).toBe(false);
    expect(fixture.git(['rev-parse', '--verify', '--quiet', 'refs/snodo/audit'])).not.toBe('');
  });

  it('a leaked key is redacted in the transcript and its base64 copy never lands', async () => {
    const { fixture, targets } = setUp();
    await hostile.honestRun();
    const before = fixture.git(['rev-parse', 'trunk']);
    hostile.arm(stealTheKeys);
    const armed = fixture.git(['rev-parse', 'trunk']);
    const result = await hostile.run();
    const key = readFileSync(join(targets.snodoHome, 'keys', 'audit-signing-key.pem'), 'utf8');
    const keyBody = key
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('-----'))
      .join('');
    const transcript = hostile.transcript(result.jobId);
    expect(transcript).not.toContain(keyBody.slice(0, 40));
    expect(transcript).not.toContain(CANARY_API_KEY);
    expect(result).toMatchObject({ status: 'halted', outcome: 'blocker' });
    expect(result.verdicts.find((verdict) => verdict.gateId === 'known_secrets_guard')?.severity).toBe(
      'blocker',
    );
    expect(fixture.git(['rev-parse', 'trunk'])).toBe(armed);
    expect(armed).not.toBe(before);
  });

  it('a poisoned global git config halts the job and is put back', async () => {
    const { targets } = setUp();
    const before = readFileSync(join(targets.home, '.gitconfig'), 'utf8');
    hostile.arm(poisonTheGlobalGitConfig);
    const result = await hostile.run();
    expect(result).toMatchObject({ status: 'halted', outcome: 'repository_tampered' });
    expect(result.summary).toContain('your global git config');
    expect(readFileSync(join(targets.home, '.gitconfig'), 'utf8')).toBe(before);
  });

  it('a forged protocol cache entry halts the job and is put back', async () => {
    const { fixture } = setUp();
    await hostile.honestRun();
    hostile.arm(forgeTheProtocolCache);
    const before = protocolCacheFiles(fixture.snodoHome);
    const result = await hostile.run();
    expect(hostile.transcript(result.jobId)).toContain('FORGED THE PROTOCOL CACHE');
    expect(result).toMatchObject({ status: 'halted', outcome: 'repository_tampered' });
    expect(result.summary).toContain("snodo's protocol cache");
    const after = protocolCacheFiles(fixture.snodoHome);
    for (const [path, text] of Object.entries(before)) expect(after[path], path).toBe(text);
    expect(Object.values(after).join('')).not.toContain('forged');
  });

  it('lines added to the shared info/exclude halt the job and are removed', async () => {
    const { targets } = setUp();
    await hostile.honestRun();
    const exclude = join(targets.main, '.git', 'info', 'exclude');
    const before = readFileSync(exclude, 'utf8');
    hostile.arm(hideTheUsersFiles);
    const result = await hostile.run();
    expect(result).toMatchObject({ status: 'halted', outcome: 'repository_tampered' });
    expect(result.summary).toContain('info/');
    expect(readFileSync(exclude, 'utf8')).toBe(before);
  });

  it('a grandchild that left the process group is stopped when the coder ends', async () => {
    setUp();
    const marker = `snodo-grandchild-${process.pid}-unsandboxed`;
    hostile.arm(leaveAGrandchild(marker));
    const result = await hostile.run();
    expect(result.outcome, result.summary).toBe('merged');
    expect(await noProcessMatches(marker)).toBe(true);
  });

  it('hooks planted in the workspace repository are refused and never run', async () => {
    const { targets } = setUp();
    hostile.arm(plantWorkspaceHooks);
    const result = await hostile.run();
    expect(result).toMatchObject({ status: 'halted', outcome: 'git_metadata_tampered' });
    expect(existsSync(join(targets.outside, 'hook-ran'))).toBe(false);
  });

  it('a command gate that runs an attack the coder wrote halts the job as repository_tampered', async () => {
    hostile = createHostileFixture({ sandbox: 'off', testCommand: '[sh, gate.sh]' });
    const { targets } = hostile;
    hostile.arm(attackThroughTheTests);
    const result = await hostile.run();
    expect(result).toMatchObject({ status: 'halted', outcome: 'repository_tampered' });
    expect(result.summary).toContain('post-execute command gates');
    expect(result.summary).toContain('hooks/post-commit');
    expect(existsSync(join(targets.main, '.git', 'hooks', 'post-commit'))).toBe(false);
  });

  it('links to /etc/passwd and out of the repository are never landed', async () => {
    setUp();
    hostile.arm(commitEscapingLinks);
    const result = await hostile.run();
    expect(result.outcome).toBe('blocker');
    expect(result.summary).toContain('passwd');
  });
});
