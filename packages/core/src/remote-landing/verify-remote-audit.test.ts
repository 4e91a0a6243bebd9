import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createSharedRemote, type SharedRemote, type WorkerClone } from '../testing/shared-remote-fixture.js';
import { landOnRemote } from './land-on-remote.js';
import { landTrainOnRemote } from './land-train-on-remote.js';
import { registerWorkerKey } from './register-worker-key.js';
import { verifyRemoteAudit } from './verify-remote-audit.js';

let remote: SharedRemote | undefined;
afterEach(() => remote?.cleanup());

const slow = { timeout: 180_000 };

async function land(worker: WorkerClone, jobId: string, file: string): Promise<string> {
  const task = worker.task(jobId, { [file]: `${jobId}\n` });
  const result = await landOnRemote({
    clone: worker.root,
    remote: 'origin',
    base: 'main',
    jobId,
    workerId: worker.workerId,
    snodoHome: worker.snodoHome,
    ...task,
  });
  if (result.status !== 'landed') throw new Error(`landing ${jobId} was kept: ${result.reason}`);
  return result.commit;
}

async function register(worker: WorkerClone) {
  return registerWorkerKey({
    clone: worker.root,
    remote: 'origin',
    workerId: worker.workerId,
    snodoHome: worker.snodoHome,
  });
}

/** Two registered workers, one landing each and a human commit between them; and a verifier's clone. */
async function twoWorkers(shared: SharedRemote) {
  const one = shared.clone('w1');
  const two = shared.clone('w2');
  await Promise.all([register(one), register(two)]);
  await land(one, 'j_a', 'a.txt');
  shared.push('a human commit', { 'human.txt': 'human\n' });
  await land(two, 'j_b', 'b.txt');
  return { one, two, auditor: shared.clone('auditor') };
}

describe('verifyRemoteAudit', () => {
  it(
    'passes for registered workers whose landings are all anchored, and keys register once',
    slow,
    async () => {
      const shared = createSharedRemote();
      remote = shared;
      const { one, auditor } = await twoWorkers(shared);
      expect((await register(one)).status).toBe('already-registered');
      // Another machine claiming w1 with its own key is refused: the key that signed w1's chain stays.
      const impostor = shared.clone('impostor');
      await expect(
        registerWorkerKey({
          clone: impostor.root,
          remote: 'origin',
          workerId: 'w1',
          snodoHome: impostor.snodoHome,
        }),
      ).rejects.toMatchObject({ code: 'WORKER_KEY_CONFLICT' });

      const verification = await verifyRemoteAudit({ repositoryRoot: auditor.root, remote: 'origin' });

      expect(verification.failures).toEqual([]);
      expect(verification).toMatchObject({ ok: true, base: 'main', landings: { checked: 2, anchored: 2 } });
      expect(verification.chains.map((chain) => [chain.worker, chain.ok])).toEqual([
        ['w1', true],
        ['w2', true],
      ]);
      expect(verification.keys.map((entry) => entry.worker)).toEqual(['w1', 'w2']);
    },
  );

  it(
    'passes for a merge train: every landing commit of the train is anchored in the chain',
    slow,
    async () => {
      const shared = createSharedRemote();
      remote = shared;
      const worker = shared.clone('w1');
      await register(worker);
      const base = worker.git(['rev-parse', 'origin/main']);
      const cars = ['j_t1', 'j_t2', 'j_t3'].map((jobId) => ({
        jobId,
        ...worker.task(jobId, { [`${jobId}.txt`]: `${jobId}\n` }, base),
      }));
      const landed = await landTrainOnRemote({
        clone: worker.root,
        remote: 'origin',
        base: 'main',
        workerId: worker.workerId,
        snodoHome: worker.snodoHome,
        cars,
      });
      expect(landed.cars.map((entry) => entry.result.status)).toEqual(['landed', 'landed', 'landed']);
      const auditor = shared.clone('auditor');

      const verification = await verifyRemoteAudit({ repositoryRoot: auditor.root, remote: 'origin' });

      expect(verification.failures).toEqual([]);
      expect(verification).toMatchObject({ ok: true, landings: { checked: 3, anchored: 3 } });
    },
  );

  it('fails for a tampered chain, naming the worker (E_CHAIN_REWRITTEN)', slow, async () => {
    remote = createSharedRemote();
    const { auditor } = await twoWorkers(remote);
    expect((await verifyRemoteAudit({ repositoryRoot: auditor.root, remote: 'origin' })).ok).toBe(true);

    // Edit one recorded fact in w1's snapshot and put the edited snapshot in place of the real one.
    const shared = remote;
    const tip = shared.remoteGit(['rev-parse', 'refs/snodo/audit/w1']);
    const log = shared.remoteGit(['show', `${tip}:audit.log`]);
    const edited = `${log.replace('"a.txt"', '"x.txt"').replace('"worker":"w1"', '"worker":"w9"')}\n`;
    expect(edited).not.toBe(`${log}\n`);
    const blob = shared.remoteGitInput(['hash-object', '-w', '--stdin'], edited);
    const checkpointBlob = shared.remoteGit(['rev-parse', `${tip}:checkpoint.json`]);
    const tree = shared.remoteGitInput(
      ['mktree'],
      `100644 blob ${blob}\taudit.log\n100644 blob ${checkpointBlob}\tcheckpoint.json\n`,
    );
    const message = shared.remoteGit(['log', '-1', '--format=%B', tip]);
    const forged = shared.remoteGitInput(['commit-tree', tree, '-F', '-'], `${message}\n`);
    shared.remoteGit(['update-ref', 'refs/snodo/audit/w1', forged]);

    const verification = await verifyRemoteAudit({ repositoryRoot: auditor.root, remote: 'origin' });

    expect(verification.ok).toBe(false);
    const codes = verification.failures.map((failure) => [failure.code, failure.worker]);
    expect(codes).toContainEqual(['E_CHAIN_REWRITTEN', 'w1']);
    const reasons = verification.failures.map((failure) => failure.reason).join('\n');
    expect(reasons).toContain('E_HASH');
    expect(reasons).toContain('verified before');
    expect(verification.chains.find((chain) => chain.worker === 'w2')?.ok).toBe(true);
  });

  it('fails for a worker whose key is not registered (E_KEY_UNREGISTERED)', slow, async () => {
    remote = createSharedRemote();
    const { auditor } = await twoWorkers(remote);
    const stranger = remote.clone('w3');
    await land(stranger, 'j_c', 'c.txt');

    const verification = await verifyRemoteAudit({ repositoryRoot: auditor.root, remote: 'origin' });

    expect(verification.ok).toBe(false);
    const failure = verification.failures.find((entry) => entry.code === 'E_KEY_UNREGISTERED');
    expect(failure).toMatchObject({
      worker: 'w3',
      reason: expect.stringContaining('no key is registered for worker w3'),
    });
  });

  it('fails for a landing commit whose trailer points at nothing (E_LANDING_UNANCHORED)', slow, async () => {
    remote = createSharedRemote();
    const { auditor } = await twoWorkers(remote);
    const forged = remote.pushMessage(
      'looks like a landing\n\nSnodo-Job: j_fake\nSnodo-Audit: worker=w1 seq=999 hash=' + 'ab'.repeat(32),
      { 'fake.txt': 'fake\n' },
    );

    const verification = await verifyRemoteAudit({ repositoryRoot: auditor.root, remote: 'origin' });

    expect(verification.ok).toBe(false);
    expect(verification.landings).toEqual({ checked: 3, anchored: 2 });
    expect(verification.failures).toEqual([
      expect.objectContaining({
        code: 'E_LANDING_UNANCHORED',
        commit: forged,
        reason: expect.stringContaining('seq 999'),
      }),
    ]);
  });
  it(
    'a lander with another key than the registered one is refused; a snapshot whose signature was forged fails (E_SIGNATURE)',
    slow,
    async () => {
      const shared = createSharedRemote();
      remote = shared;
      const { auditor } = await twoWorkers(shared);
      // Another machine tries to land under w1's id with its own key: refused before anything is pushed.
      const impostor = shared.clone('impostor');
      const task = impostor.task('j_evil', { 'evil.txt': 'evil\n' });
      const before = shared.remoteGit(['rev-parse', 'refs/heads/main']);
      const refused = await landOnRemote({
        clone: impostor.root,
        remote: 'origin',
        base: 'main',
        jobId: 'j_evil',
        workerId: 'w1',
        snodoHome: impostor.snodoHome,
        ...task,
      });
      expect(refused).toMatchObject({
        status: 'kept',
        reason: expect.stringContaining('registered with key'),
      });
      expect(shared.remoteGit(['rev-parse', 'refs/heads/main'])).toBe(before);

      // Someone with push access swaps the signature of w1's newest snapshot for another one.
      const tip = shared.remoteGit(['rev-parse', 'refs/snodo/audit/w1']);
      const message = shared.remoteGit(['log', '-1', '--format=%B', tip]);
      const forgedMessage = message.replace(
        /^(Snodo-Audit-Checkpoint: )(\S+)$/m,
        (_line, key: string, value: string) => {
          const checkpoint = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { sig: string };
          checkpoint.sig = Buffer.alloc(64, 7).toString('base64');
          return `${key}${Buffer.from(JSON.stringify(checkpoint), 'utf8').toString('base64url')}`;
        },
      );
      expect(forgedMessage).not.toBe(message);
      const parents = shared
        .remoteGit(['log', '-1', '--format=%P', tip])
        .split(' ')
        .filter(Boolean)
        .flatMap((parent) => ['-p', parent]);
      const forged = shared.remoteGitInput(
        ['commit-tree', `${tip}^{tree}`, ...parents, '-F', '-'],
        `${forgedMessage}\n`,
      );
      shared.remoteGit(['update-ref', 'refs/snodo/audit/w1', forged]);

      const verification = await verifyRemoteAudit({ repositoryRoot: auditor.root, remote: 'origin' });

      expect(verification.ok).toBe(false);
      expect(verification.failures).toContainEqual(
        expect.objectContaining({
          code: 'E_SIGNATURE',
          worker: 'w1',
          reason: expect.stringContaining('does not verify'),
        }),
      );
    },
  );

  it('fails for a landing whose worker chain is gone from the remote (E_CHAIN_MISSING)', slow, async () => {
    const shared = createSharedRemote();
    remote = shared;
    const { auditor } = await twoWorkers(shared);
    expect((await verifyRemoteAudit({ repositoryRoot: auditor.root, remote: 'origin' })).ok).toBe(true);
    shared.remoteGit(['update-ref', '-d', 'refs/snodo/audit/w2']);

    const verification = await verifyRemoteAudit({ repositoryRoot: auditor.root, remote: 'origin' });

    expect(verification.ok).toBe(false);
    const missing = verification.failures.filter((failure) => failure.code === 'E_CHAIN_MISSING');
    expect(missing.map((failure) => failure.worker)).toEqual(['w2', 'w2']);
    expect(missing.map((failure) => failure.reason).join('\n')).toContain('verified before');
    expect(verification.landings).toEqual({ checked: 2, anchored: 1 });
  });
  it('fails when a registered key is replaced on refs/snodo/keys (E_KEYS_REWRITTEN)', slow, async () => {
    const shared = createSharedRemote();
    remote = shared;
    const { auditor } = await twoWorkers(shared);
    const tip = shared.remoteGit(['rev-parse', 'refs/snodo/keys']);
    const otherKey = generateKeyPairSync('ed25519')
      .publicKey.export({ format: 'pem', type: 'spki' })
      .toString();
    const blob = shared.remoteGitInput(['hash-object', '-w', '--stdin'], otherKey);
    const entries = shared
      .remoteGit(['ls-tree', tip])
      .split('\n')
      .map((line) => (line.endsWith('\tw1.pub') ? `100644 blob ${blob}\tw1.pub` : line));
    const tree = shared.remoteGitInput(['mktree'], `${entries.join('\n')}\n`);
    const replaced = shared.remoteGitInput(['commit-tree', tree, '-p', tip, '-F', '-'], 'rotate w1\n');
    shared.remoteGit(['update-ref', 'refs/snodo/keys', replaced]);

    const verification = await verifyRemoteAudit({ repositoryRoot: auditor.root, remote: 'origin' });

    expect(verification.ok).toBe(false);
    expect(verification.failures).toContainEqual(
      expect.objectContaining({
        code: 'E_KEYS_REWRITTEN',
        worker: 'w1',
        reason: expect.stringContaining('changes w1.pub'),
      }),
    );
  });
});
