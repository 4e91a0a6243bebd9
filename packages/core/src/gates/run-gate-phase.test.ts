import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commitAndDiff,
  createTemporaryRepository,
  type TemporaryRepository,
} from '../testing/temporary-repository.js';
import type { GateCommandRunner } from './commands/gate-command-runner.js';
import type { DiffContext } from './constraints/diff-context.js';
import type { GateValidatorSpec } from './gate-validator-spec.js';
import type { GateVerdict } from './gate-verdict.js';
import type { GateJudgeFunction, GateJudgeRequest } from './judges/gate-judge-function.js';
import { evaluatePolicy } from './policy/evaluate-policy.js';
import { runGatePhase } from './run-gate-phase.js';

let repository: TemporaryRepository;
afterEach(() => repository?.remove());

const judgeSpec = (
  id: string,
  phase = 'pre_execute',
  extra: Partial<GateValidatorSpec> = {},
): GateValidatorSpec => ({
  validator_id: id,
  validator_type: 'conventions',
  evaluation_phase: phase,
  criteria: [`criterion of ${id}`],
  ...extra,
});

/** A judge that answers after a per-gate delay and records how many calls were in flight at most. */
function slowJudge(delays: Record<string, number>) {
  let inFlight = 0;
  const state = { maxInFlight: 0, started: [] as string[], requests: [] as GateJudgeRequest[] };
  const judge: GateJudgeFunction = async (request) => {
    inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    state.started.push(request.gateId);
    state.requests.push(request);
    await sleep(delays[request.gateId] ?? 5);
    inFlight -= 1;
    return {
      verdict: { severity: 'pass', justification: `${request.gateId} ok`, findings: [] },
      model: request.model,
    };
  };
  return { judge, state };
}

async function diffWith(files: Record<string, string>): Promise<DiffContext> {
  repository = createTemporaryRepository();
  return commitAndDiff(repository, (repo) => {
    for (const [path, content] of Object.entries(files)) repo.write(path, content);
  });
}

describe('runGatePhase', () => {
  it('never runs more judges at once than the concurrency bound', async () => {
    const { judge, state } = slowJudge({});
    const validators = Array.from({ length: 9 }, (_, index) => judgeSpec(`j${index}`));
    const verdicts = await runGatePhase({
      phase: 'pre_execute',
      validators,
      context: { task: 't', worktreePath: '/nonexistent', judgeModel: 'fake/m' },
      concurrency: 3,
      judge,
    });
    expect(verdicts).toHaveLength(9);
    expect(state.maxInFlight).toBe(3);
  });

  it('returns verdicts in protocol order when they finish out of order, and streams them as they finish', async () => {
    const { judge } = slowJudge({ first: 120, second: 60, third: 1 });
    const streamed: string[] = [];
    const verdicts = await runGatePhase({
      phase: 'pre_execute',
      validators: [judgeSpec('first'), judgeSpec('second'), judgeSpec('third')],
      context: { task: 't', worktreePath: '/nonexistent', judgeModel: 'fake/m' },
      judge,
      // All three start at once here; warming (one judge first) is tested in run-gate-phase.cache.test.ts.
      warmCache: false,
      onVerdict: (verdict) => streamed.push(verdict.gateId),
    });
    expect(verdicts.map((verdict) => verdict.gateId)).toEqual(['first', 'second', 'third']);
    expect(streamed).toEqual(['third', 'second', 'first']);
  });

  it('runs only the validators of the phase', async () => {
    const { judge, state } = slowJudge({});
    const verdicts = await runGatePhase({
      phase: 'pre_execute',
      validators: [
        judgeSpec('pre'),
        judgeSpec('post', 'post_execute'),
        judgeSpec('later', 'mode_transition'),
        {
          validator_id: 'default-phase',
          validator_type: 'planning',
          criteria: ['clear'],
        },
      ],
      context: { task: 't', worktreePath: '/nonexistent', judgeModel: 'fake/m' },
      judge,
    });
    expect(verdicts.map((verdict) => verdict.gateId)).toEqual(['pre', 'default-phase']);
    expect(state.started.sort()).toEqual(['default-phase', 'pre']);
  });

  it('post-execute: constraints first (guard included), command gates before judges, judges see their results', async () => {
    const diff = await diffWith({ 'src/app.ts': 'export const x = 1;\n', 'lib/extra.ts': 'x\n' });
    const events: string[] = [];
    const runCommand: GateCommandRunner = async () => {
      events.push('command-start');
      await sleep(50);
      events.push('command-end');
      return {
        outcome: 'exited',
        exitCode: 1,
        signal: null,
        output: '1 test failed: adds numbers',
        outputTruncated: false,
      };
    };
    const { judge, state } = slowJudge({});
    const recordingJudge: GateJudgeFunction = async (request) => {
      events.push(`judge-${request.gateId}`);
      return judge(request);
    };
    const verdicts = await runGatePhase({
      phase: 'post_execute',
      validators: [
        judgeSpec('review', 'post_execute'),
        {
          validator_id: 'tests',
          validator_type: 'quality',
          evaluation_phase: 'post_execute',
          tooling: { test_command: 'npm test' },
        },
        judgeSpec('shadow', 'post_execute', { severity_cap: 'warn' }),
      ],
      constraints: [
        {
          constraint_id: 'scope',
          predicate: 'files_in_scope',
          params: { scope_paths: ['src/**'] },
          severity: 'warn',
        },
      ],
      context: { task: 'add x', worktreePath: repository.path, diff, judgeModel: 'fake/m' },
      judge: recordingJudge,
      runCommand,
    });
    expect(verdicts.map((verdict) => verdict.gateId)).toEqual([
      'snodo_mutation_guard',
      'workspace_symlink_guard',
      'known_secrets_guard',
      'scope',
      'review',
      'tests',
      'shadow',
    ]);
    expect(verdicts.map((verdict) => verdict.severity)).toEqual([
      'pass',
      'pass',
      'pass',
      'warn',
      'pass',
      'blocker',
      'pass',
    ]);
    expect(events.slice(0, 2)).toEqual(['command-start', 'command-end']);
    for (const request of state.requests) {
      expect(request.prompt).toContain('tests: blocker');
      expect(request.prompt).toContain('1 test failed: adds numbers');
      expect(request.prompt).toContain('src/app.ts');
    }
    expect(evaluatePolicy(verdicts)).toMatchObject({ action: 'halt', haltReason: 'blocker' });
  });

  it('applies severity_cap and keeps an erroring capped judge an error', async () => {
    const failing: GateJudgeFunction = async () => {
      throw new Error('rate limited');
    };
    const verdicts = await runGatePhase({
      phase: 'pre_execute',
      validators: [judgeSpec('shadow', 'pre_execute', { severity_cap: 'warn' })],
      context: { task: 't', worktreePath: '/nonexistent', judgeModel: 'fake/m' },
      judge: failing,
    });
    expect(verdicts[0]).toMatchObject({
      severity: 'warn',
      error: true,
      capped: true,
      originalSeverity: 'blocker',
    });
    expect(evaluatePolicy(verdicts)).toMatchObject({ action: 'halt', haltReason: 'validator_error' });
  });

  it('warns for a judge type without criteria, and blocks with an error when no model is configured', async () => {
    const { judge } = slowJudge({});
    const verdicts = await runGatePhase({
      phase: 'pre_execute',
      validators: [
        { validator_id: 'empty', validator_type: 'security', criteria: [] },
        { validator_id: 'custom', validator_type: 'accessibility', criteria: ['alt text on images'] },
      ],
      context: { task: 't', worktreePath: '/nonexistent' },
      judge,
    });
    expect(verdicts[0]).toMatchObject({ gateId: 'empty', severity: 'warn', error: false });
    expect(verdicts[0]?.justification).toContain('no criteria configured');
    expect(verdicts[1]).toMatchObject({ gateId: 'custom', severity: 'blocker', error: true });
  });

  it('always runs the built-in guards in post-execute, even with no constraint declared', async () => {
    const diff = await diffWith({ '.snodo/protocol.yml': 'protocol_id: hijacked\n' });
    const verdicts = await runGatePhase({
      phase: 'post_execute',
      validators: [],
      context: { task: 't', worktreePath: repository.path, diff },
    });
    expect(verdicts).toMatchObject([
      { gateId: 'snodo_mutation_guard', severity: 'blocker' },
      { gateId: 'workspace_symlink_guard', severity: 'pass' },
      { gateId: 'known_secrets_guard', severity: 'pass' },
    ]);
  });

  it('runs real command gates in the worktree', async () => {
    const diff = await diffWith({ 'src/a.ts': 'x\n' });
    const verdicts = await runGatePhase({
      phase: 'post_execute',
      validators: [
        {
          validator_id: 'lint',
          validator_type: 'quality',
          evaluation_phase: 'post_execute',
          tooling: { test_command: 'test -f src/a.ts' },
        },
      ],
      context: { task: 't', worktreePath: repository.path, diff, env: { PATH: process.env.PATH } },
    });
    expect(verdicts.at(-1)).toMatchObject({ gateId: 'lint', severity: 'pass' });
  });

  it('stops on abort: no new gate starts and the call rejects with the reason', async () => {
    const { judge, state } = slowJudge({ a: 100, b: 100, c: 100 });
    const controller = new AbortController();
    const streamed: GateVerdict[] = [];
    const running = runGatePhase({
      phase: 'pre_execute',
      validators: [judgeSpec('a'), judgeSpec('b'), judgeSpec('c')],
      context: { task: 't', worktreePath: '/nonexistent', judgeModel: 'fake/m' },
      concurrency: 1,
      judge,
      signal: controller.signal,
      onVerdict: (verdict) => streamed.push(verdict),
    });
    setTimeout(() => controller.abort(new Error('user pressed Ctrl-C')), 30);
    await expect(running).rejects.toThrow('user pressed Ctrl-C');
    expect(state.started).toEqual(['a']);
    expect(streamed).toEqual([]);
  });

  it('refuses a post-execute phase without the diff and a bad concurrency', async () => {
    await expect(
      runGatePhase({ phase: 'post_execute', validators: [], context: { task: 't', worktreePath: '/x' } }),
    ).rejects.toThrow(/loadDiffContext/);
    await expect(
      runGatePhase({
        phase: 'pre_execute',
        validators: [],
        context: { task: 't', worktreePath: '/x' },
        concurrency: 0,
      }),
    ).rejects.toThrow(/concurrency/);
  });
});
