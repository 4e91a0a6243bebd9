import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockCoderAdapterV1 } from '@snodo/coder-sdk/test';
import { runTask } from '@snodo/core';
import { afterEach, describe, expect, it } from 'vitest';
import { pruneLandedBranches } from './prune-landed-branches.js';

const PROTOCOL = `protocol_id: prune
name: Prune
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit]
    validators: [review]
validators:
  - validator_id: review
    validator_type: architecture
    evaluation_phase: post_execute
    criteria: [The change is what the task asks.]
disagreement_policy: unanimous
execution:
  sandbox: off
`;

let directory: string | undefined;
afterEach(() => {
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

describe('pruneLandedBranches', () => {
  it('deletes the branches of ended jobs whose tip is on the fetched base, and nothing else', async () => {
    directory = mkdtempSync(join(tmpdir(), 'snodo-prune-'));
    const clone = join(directory, 'clone');
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: clone,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      }).trim();
    execFileSync('git', ['init', '--quiet', '--initial-branch=main', clone]);
    git('config', 'user.name', 'Tester');
    git('config', 'user.email', 'tester@example.com');
    writeFileSync(join(clone, 'README.md'), 'hello\n');
    mkdirSync(join(clone, '.snodo'));
    writeFileSync(join(clone, '.snodo', 'protocol.yml'), PROTOCOL);
    mkdirSync(join(directory, 'home'), { mode: 0o700 });
    git('add', '--all');
    git('commit', '--quiet', '-m', 'initial');
    const base = git('rev-parse', 'HEAD');

    /** A job of this clone, run by the pipeline with a kept branch (as a worker runs it), with its status. */
    const job = async (file: string, status: 'done' | 'running') => {
      const coder = new MockCoderAdapterV1({
        id: 'writer',
        doRun: {
          status: 'changed',
          proposals: [{ path: file, action: 'write', content: `${file}\n` }],
          changedFiles: [file],
          usage: null,
          durationMs: 1,
        },
      });
      const result = await runTask({
        task: `Add ${file}`,
        cwd: clone,
        env: { ...process.env, SNODO_HOME: join(directory ?? '', 'home'), HOME: directory ?? '' },
        coders: {
          registrations: [{ id: 'writer', displayName: 'Writer', kind: 'engine-managed', load: () => coder }],
          defaultCoderId: 'writer',
          mockCoderId: 'writer',
        },
        coder: 'writer',
        model: 'mock/pass',
        mergeStrategy: 'none',
      }).result;
      expect(result.outcome, result.summary).toBe('branch_kept');
      if (status === 'running') {
        // A job still running on this worker: its state says so (its branch is on the base too).
        const path = join(clone, '.snodo', 'jobs', result.jobId, 'state.json');
        writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), status: 'running' }));
      }
      return result.branch as string;
    };
    const landed = await job('landed.txt', 'done');
    const notLanded = await job('kept.txt', 'done');
    const running = await job('running.txt', 'running');
    // A branch under snodo/ that no job of this clone recorded: somebody else's.
    git('branch', 'snodo/j_foreign-work', base);
    // The remote base as the worker fetched it, with the landed branch merged into it (a landing commit),
    // and the running job's too (its tip may be on the base while its job has not ended here).
    git('merge', '--quiet', '--no-ff', '-m', 'landing', landed);
    git('merge', '--quiet', '--no-ff', '-m', 'landing', running);
    git('update-ref', 'refs/remotes/origin/main', 'HEAD');

    // A landed job whose branch is checked out in a worktree that was kept.
    const checkedOut = await job('worktree.txt', 'done');
    git('merge', '--quiet', '--no-ff', '-m', 'landing', checkedOut);
    git('update-ref', 'refs/remotes/origin/main', 'HEAD');
    git('worktree', 'add', '--quiet', join(directory, 'kept'), checkedOut);

    expect(await pruneLandedBranches(clone, 'refs/remotes/origin/main')).toBe(1);
    const branches = git('for-each-ref', '--format=%(refname:short)', 'refs/heads/snodo/').split('\n');
    expect(branches.sort()).toEqual([notLanded, running, checkedOut, 'snodo/j_foreign-work'].sort());
    // Nothing else to do the second time.
    expect(await pruneLandedBranches(clone, 'refs/remotes/origin/main')).toBe(0);
  });
});
