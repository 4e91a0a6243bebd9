import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSharedRemote, type SharedRemote, type WorkerClone } from '../testing/shared-remote-fixture.js';
import { landOnRemote } from './land-on-remote.js';
import { recheckCommandGates } from './recheck-command-gates.js';
import type { RemoteLandingRequest } from './remote-landing-request.js';

let remote: SharedRemote | undefined;
afterEach(() => remote?.cleanup());

const slow = { timeout: 60_000 };

// A semantic conflict git cannot see: the task's feature.txt names a function lib.txt must define. A judge
// sits in the same mode: the re-check never runs it (no judging function is wired, so running it would be
// an error verdict and the landing would be kept).
const protocol = `protocol_id: recheck
name: Re-check protocol
initial_mode: code
modes:
  - mode_id: code
    name: Code
    tools: [edit]
    validators: [review, feature-uses-lib]
validators:
  - validator_id: review
    validator_type: security
    evaluation_phase: post_execute
    criteria: [No credentials are added.]
  - validator_id: feature-uses-lib
    validator_type: quality
    evaluation_phase: post_execute
    tooling:
      test_command: 'grep -qx "$(cat feature.txt)" lib.txt || { echo "lib.txt does not define $(cat feature.txt)"; exit 1; }'
disagreement_policy: unanimous
`;

function setUp(): { shared: SharedRemote; worker: WorkerClone } {
  const shared = createSharedRemote();
  remote = shared;
  shared.push('protocol and lib', { '.snodo/protocol.yml': protocol, 'lib.txt': 'greet\n' });
  return { shared, worker: shared.clone('w1') };
}

function request(
  worker: WorkerClone,
  jobId: string,
  task: { taskCommit: string; taskBase: string },
  calls: string[],
): RemoteLandingRequest {
  const homeDirectory = join(worker.root, '..', 'user-home');
  mkdirSync(homeDirectory, { recursive: true });
  return {
    clone: worker.root,
    remote: 'origin',
    base: 'main',
    jobId,
    workerId: worker.workerId,
    snodoHome: worker.snodoHome,
    ...task,
    recheck: (candidate) => {
      calls.push(candidate.commit);
      return recheckCommandGates({
        clone: worker.root,
        snodoHome: worker.snodoHome,
        mode: 'code',
        jobId,
        task: 'Add a feature',
        env: { PATH: process.env.PATH },
        homeDirectory,
        baseName: 'main',
        ...candidate,
      });
    },
  };
}

/** The lander's own chain (its clone's `.snodo/audit.log`), events of one type. */
function events(worker: WorkerClone, type: string): Array<Record<string, unknown>> {
  return readFileSync(join(worker.root, '.snodo', 'audit.log'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> })
    .filter((event) => event.type === type)
    .map((event) => event.data);
}

function leftoverRechecks(worker: WorkerClone): string[] {
  const directory = join(worker.snodoHome, 'rechecks');
  return existsSync(directory) ? readdirSync(directory) : [];
}

describe('landOnRemote with recheckCommandGates', () => {
  it(
    'a base moved by a compatible commit: the command gate runs again, passes, is audited, and the job lands',
    slow,
    async () => {
      const { shared, worker } = setUp();
      const task = worker.task('j_ok', { 'feature.txt': 'greet\n' });
      const moved = shared.push('docs', { 'docs.txt': 'how to greet\n' });
      const calls: string[] = [];

      const result = await landOnRemote(request(worker, 'j_ok', task, calls));

      expect(result.status, result.status === 'kept' ? result.reason : '').toBe('landed');
      expect(calls).toHaveLength(1);
      if (result.status !== 'landed') return;
      expect(shared.remoteGit(['rev-parse', `${result.commit}^1`])).toBe(moved);
      const [start] = events(worker, 'remote-landing-start');
      expect(start).toMatchObject({ recheck: 'passed', base_commit: moved });
      const gates = start?.recheck_gates as Array<Record<string, unknown>>;
      expect(gates).toContainEqual({
        gate_id: 'feature-uses-lib',
        kind: 'command',
        severity: 'pass',
        error: false,
      });
      // The judge of the mode is not part of the re-check.
      expect(gates.map((gate) => gate.gate_id)).not.toContain('review');
      // The throw-away workspace is gone and the gate left nothing in the lander's clone.
      expect(leftoverRechecks(worker)).toEqual([]);
      expect(worker.git(['status', '--porcelain'])).toBe('');
    },
  );

  it(
    'a base moved so the change fails a command gate: kept, the reason names the gate and its output, nothing pushed',
    slow,
    async () => {
      const { shared, worker } = setUp();
      const task = worker.task('j_bad', { 'feature.txt': 'greet\n' });
      // A clean merge (the task never touched lib.txt), but the function the feature names is gone.
      const moved = shared.push('rename greet to hello', { 'lib.txt': 'hello\n' });
      const calls: string[] = [];

      const result = await landOnRemote(request(worker, 'j_bad', task, calls));

      expect(result.status).toBe('kept');
      if (result.status !== 'kept') return;
      expect(result.reason).toContain('command gate feature-uses-lib failed');
      expect(result.reason).toContain('lib.txt does not define greet');
      expect(shared.remoteGit(['rev-parse', 'refs/heads/main'])).toBe(moved);
      expect(shared.remoteGit(['for-each-ref', 'refs/snodo/audit/'])).toBe('');
      expect(events(worker, 'remote-landing-start')).toEqual([]);
      const [end] = events(worker, 'remote-landing-end');
      expect(end).toMatchObject({ outcome: 'kept' });
      expect(end?.recheck_gates).toContainEqual({
        gate_id: 'feature-uses-lib',
        kind: 'command',
        severity: 'blocker',
        error: false,
      });
      expect(leftoverRechecks(worker)).toEqual([]);
    },
  );

  it('an unchanged base: no re-check runs', slow, async () => {
    const { worker } = setUp();
    const task = worker.task('j_same', { 'feature.txt': 'greet\n' });
    const calls: string[] = [];

    const result = await landOnRemote(request(worker, 'j_same', task, calls));

    expect(result.status).toBe('landed');
    expect(calls).toEqual([]);
    const [start] = events(worker, 'remote-landing-start');
    expect(start).toMatchObject({ recheck: 'not-needed' });
    expect(start?.recheck_gates).toBeUndefined();
  });

  it(
    "a moved base whose protocol runs a failing setup, or lost the job's mode: kept, saying which",
    slow,
    async () => {
      const { shared, worker } = setUp();
      const first = worker.task('j_setup', { 'feature.txt': 'greet\n' });
      shared.push('setup', {
        '.snodo/protocol.yml': `${protocol}execution:\n  setup: 'echo cannot install; exit 3'\n`,
      });
      const setupFailed = await landOnRemote(request(worker, 'j_setup', first, []));
      expect(setupFailed.status).toBe('kept');
      if (setupFailed.status === 'kept') {
        expect(setupFailed.reason).toContain('exited with code 3: cannot install');
      }

      const second = worker.task('j_mode', { 'feature.txt': 'greet\n' });
      shared.push('rename the mode', { '.snodo/protocol.yml': protocol.replaceAll(': code', ': build') });
      const modeGone = await landOnRemote(request(worker, 'j_mode', second, []));
      expect(modeGone.status).toBe('kept');
      if (modeGone.status === 'kept') expect(modeGone.reason).toContain('has no mode code');
      expect(leftoverRechecks(worker)).toEqual([]);
    },
  );
});
