import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoderAbortedError, type CoderV1Request, type CoderV1Result } from '@snodo/coder-sdk';
import { MockCoderAdapterV1 } from '@snodo/coder-sdk/test';
import { startFakeLlm } from '@snodo/conformance/fake-llm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BudgetInvalidError, JobActionRefusedError } from '../errors.js';
import { readJobState } from '../jobs/index.js';
import { openProject } from '../project/open-project.js';
import { planTask } from '../project/plan-task.js';
import { approveJob } from '../tasks/approve-job.js';
import {
  createPipelineFixture,
  mockRegistration,
  type PipelineFixture,
  registrationFor,
  testProtocol,
} from '../testing/pipeline-fixture.js';

let fixture: PipelineFixture;
beforeEach(() => {
  fixture = createPipelineFixture();
});
afterEach(() => fixture.cleanup());

function auditTypes(): string[] {
  return readFileSync(join(fixture.root, '.snodo/audit.log'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { type: string }).type);
}

function auditEvents(type: string): Record<string, unknown>[] {
  return readFileSync(join(fixture.root, '.snodo/audit.log'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> })
    .filter((event) => event.type === type)
    .map((event) => event.data);
}

/**
 * An in-place coder that spends while it works: its first attempt writes half the change, reports $0.30 of
 * usage and then keeps working until it is stopped (only the abort signal ends it); a continued attempt
 * finishes the change and commits it. The prompts it saw are kept for the assertions.
 */
function spendingCoder() {
  const prompts: string[] = [];
  let stoppedByAbort = false;
  const adapter = new MockCoderAdapterV1({
    id: 'spender',
    kind: 'in-place',
    supportsAbort: true,
    doRun: async (request: CoderV1Request): Promise<CoderV1Result> => {
      prompts.push(request.prompt);
      if (request.attempt === 1) {
        writeFileSync(join(request.workspace, 'NOTES.md'), '# Notes\n\nfirst half\n');
        request.emit({
          type: 'usage',
          usage: {
            inputTokens: 2500,
            outputTokens: 500,
            cachedInputTokens: 0,
            costUsd: 0.3,
            source: 'reported',
          },
        });
        await new Promise<void>((resolve) => {
          if (request.abortSignal.aborted) resolve();
          request.abortSignal.addEventListener('abort', () => resolve(), { once: true });
        });
        stoppedByAbort = true;
        throw new CoderAbortedError({ coderId: 'spender', displayName: 'Spender' });
      }
      const notes = join(request.workspace, 'NOTES.md');
      writeFileSync(notes, `${readFileSync(notes, 'utf8')}second half\n`);
      fixture.git(['add', '--all'], request.workspace);
      fixture.git(['commit', '--quiet', '-m', 'finish the notes'], request.workspace);
      return {
        status: 'changed',
        changedFiles: ['NOTES.md'],
        usage: {
          inputTokens: 400,
          outputTokens: 100,
          cachedInputTokens: 0,
          costUsd: 0.05,
          source: 'reported',
        },
        durationMs: 1,
      };
    },
  });
  return { adapter, prompts, stopped: () => stoppedByAbort };
}

function approveOptions(jobId: string, extra: object = {}) {
  return {
    cwd: fixture.root,
    env: fixture.env,
    homeDirectory: fixture.env.HOME as string,
    actor: 'reviewer',
    jobId,
    reason: 'worth finishing',
    coders: {
      registrations: [mockRegistration, registrationFor(coder.adapter)],
      defaultCoderId: 'mock',
      mockCoderId: 'mock',
    },
    ...extra,
  };
}

let coder: ReturnType<typeof spendingCoder>;

describe('budgets', { timeout: 60_000 }, () => {
  it('stops the coder when its usage crosses --max-cost, keeps its work, escalates with the spend; approve --budget lands it', async () => {
    coder = spendingCoder();
    const { result, events } = await fixture.run({
      task: 'write the notes',
      coder: 'spender',
      model: 'mock/pass',
      maxCostUsd: 0.25,
      extraCoders: [registrationFor(coder.adapter)],
    });
    expect(coder.stopped()).toBe(true);
    expect(result).toMatchObject({ status: 'halted', outcome: 'escalated', attempts: 1 });
    expect(result.summary).toContain('reached its budget while the coder ran');
    expect(result.summary).toContain('$0.3000 of the $0.2500 cap');
    expect(result.summary).toContain(`snodo task approve ${result.jobId} --budget <usd>`);
    expect(result.nextSteps).toContain(`snodo task approve ${result.jobId} --budget <usd> --reason "…"`);
    const state = readJobState(fixture.root, result.jobId);
    expect(state.budget).toMatchObject({
      maxCostUsd: { value: 0.25, source: 'flag' },
      exceeded: { cap: 'cost', limit: 0.25, costUsd: 0.3, tokens: 3000, phase: 'execute' },
    });
    // The spend of the stopped attempt is on record, per role.
    expect(state.usage.coder).toMatchObject({ inputTokens: 2500, outputTokens: 500, costUsd: 0.3 });
    // The work so far is committed on the task branch, in the user's repository.
    const branch = result.branch as string;
    expect(fixture.git(['show', `${branch}:NOTES.md`])).toContain('first half');
    expect(fixture.git(['ls-tree', '--name-only', 'trunk'])).not.toContain('NOTES.md');
    expect(auditEvents('budget-exceed')).toEqual([
      expect.objectContaining({
        cap: 'cost',
        limit: 250_000,
        phase: 'execute',
        spent_tokens: 3000,
        spent_cost_micro_usd: 300_000,
      }),
    ]);
    expect(events.some((event) => event.type === 'usage' && event.role === 'coder')).toBe(true);

    // A plain approve is the question asked again: it says what to type instead.
    await expect(approveJob(approveOptions(result.jobId))).rejects.toSatisfy(
      (error: unknown) =>
        JobActionRefusedError.isInstance(error) && /--budget <usd>/.test((error as Error).message),
    );
    // A cap not above the spend so far would stop at once.
    await expect(approveJob(approveOptions(result.jobId, { maxCostUsd: 0.3 }))).rejects.toSatisfy(
      (error: unknown) =>
        JobActionRefusedError.isInstance(error) &&
        /not above what the job has already spent \(\$0\.3000\)/.test((error as Error).message),
    );
    expect(readJobState(fixture.root, result.jobId).status).toBe('halted');

    const approved = await approveJob(approveOptions(result.jobId, { maxCostUsd: 2 }));
    expect(approved).toMatchObject({ status: 'done', outcome: 'merged', attempts: 2 });
    expect(coder.prompts[1]).toContain('## Continuing');
    expect(fixture.git(['show', 'trunk:NOTES.md'])).toBe('# Notes\n\nfirst half\nsecond half');
    const after = readJobState(fixture.root, result.jobId);
    expect(after.budget).toEqual({ maxCostUsd: { value: 2, source: 'approve' } });
    expect(after.usage.coder?.costUsd).toBeCloseTo(0.35);
    expect(auditEvents('budget-raise')).toEqual([
      expect.objectContaining({ by: 'reviewer', cap: 'cost', old: 250_000, new: 2_000_000 }),
    ]);
    expect(auditTypes().indexOf('budget-raise')).toBeGreaterThan(auditTypes().indexOf('job-approve'));
    expect((await fixture.verifyAudit()).ok).toBe(true);
  });

  it('escalates before the coder starts when the pre-execute judges already used --max-tokens', async () => {
    const llm = await startFakeLlm({
      script: [
        {
          verdict: { severity: 'pass', justification: 'clear task', findings: [] },
          usage: { input: 900, output: 30 },
        },
      ],
    });
    writeFileSync(
      join(fixture.snodoHome, 'config.yml'),
      `providers:\n  judge:\n    base_url: ${llm.baseUrl.openai}\n    api_key: test-key\n`,
      { mode: 0o600 },
    );
    coder = spendingCoder();
    try {
      const { result } = await fixture.run({
        task: 'write the notes',
        coder: 'spender',
        model: 'judge/some-model',
        maxTokens: 500,
        extraCoders: [registrationFor(coder.adapter)],
      });
      expect(result).toMatchObject({ status: 'halted', outcome: 'escalated', attempts: 0 });
      expect(result.summary).toContain('before the coder ran');
      expect(result.summary).toContain('930 of the 500-token cap');
      expect(coder.prompts).toEqual([]);
      expect(result.worktreePath).toBeUndefined();
      expect(readJobState(fixture.root, result.jobId).budget?.exceeded).toMatchObject({
        cap: 'tokens',
        tokens: 930,
        phase: 'pre_execute',
      });
      // Raising the dollar cap does not lift a token cap.
      await expect(approveJob(approveOptions(result.jobId, { maxCostUsd: 5 }))).rejects.toSatisfy(
        (error: unknown) => /--max-tokens <n>/.test((error as Error).message),
      );
      await expect(approveJob(approveOptions(result.jobId, { maxTokens: 900 }))).rejects.toSatisfy(
        (error: unknown) => /not above the 930 tokens/.test((error as Error).message),
      );
    } finally {
      await llm.close();
    }
  });

  it('lands a change whose passing post-execute judges took the job past its cap, and says so', async () => {
    const llm = await startFakeLlm({
      script: [
        {
          verdict: { severity: 'pass', justification: 'no secrets', findings: [] },
          usage: { input: 900, output: 30 },
        },
      ],
    });
    fixture.cleanup();
    // Only the post-execute security judge calls the (fake) provider; the pre-execute one is the mock.
    fixture = createPipelineFixture({
      protocol: testProtocol.replace(
        '  - validator_id: task-review\n',
        '  - validator_id: task-review\n    model: mock/pass\n',
      ),
      config: `providers:\n  judge:\n    base_url: ${llm.baseUrl.openai}\n    api_key: test-key\n`,
    });
    try {
      const { result, events } = await fixture.run({
        task: 'add a file',
        coder: 'mock',
        model: 'judge/some-model',
        maxTokens: 500,
        maxCostUsd: 1,
      });
      expect(result).toMatchObject({ status: 'done', outcome: 'merged' });
      const notes = events.flatMap((event) => (event.type === 'job-note' ? [event.message] : []));
      // The fake model has no price: the dollar cap is blind, and the user is told once.
      expect(notes.filter((note) => note.startsWith('The dollar cap cannot be checked'))).toEqual([
        expect.stringContaining('judge/some-model and none was reported'),
      ]);
      expect(notes).toContain(
        'The post-execute gates took the job past its budget: it used 930 of the 500-token cap (an unknown cost).',
      );
    } finally {
      await llm.close();
    }
  });

  it('holds a fix round the judges left no budget for, and runs it with its findings after a raise', async () => {
    const llm = await startFakeLlm({
      script: [
        {
          verdict: { severity: 'pass', justification: 'no secrets', findings: [] },
          usage: { input: 900, output: 30 },
        },
        {
          verdict: { severity: 'pass', justification: 'no secrets', findings: [] },
          usage: { input: 900, output: 30 },
        },
      ],
    });
    fixture.cleanup();
    // The tests gate passes once FIXED exists; failing tests send the coder back (fix_failing_tests).
    const protocol = testProtocol
      .replace('  - validator_id: task-review\n', '  - validator_id: task-review\n    model: mock/pass\n')
      .replace('"process.exit(0)"', "\"process.exit(require('fs').existsSync('FIXED') ? 0 : 1)\"")
      .replace('  max_fix_attempts: 1\n', '  max_fix_attempts: 1\n  fix_failing_tests: true\n');
    fixture = createPipelineFixture({
      protocol,
      config: `providers:\n  judge:\n    base_url: ${llm.baseUrl.openai}\n    api_key: test-key\n`,
    });
    const prompts: string[] = [];
    const fixer = new MockCoderAdapterV1({
      id: 'fixer',
      kind: 'in-place',
      doRun: async (request: CoderV1Request): Promise<CoderV1Result> => {
        prompts.push(request.prompt);
        const file = request.attempt === 1 ? 'NOTES.md' : 'FIXED';
        writeFileSync(join(request.workspace, file), 'done\n');
        fixture.git(['add', '--all'], request.workspace);
        fixture.git(['commit', '--quiet', '-m', `attempt ${request.attempt}`], request.workspace);
        return { status: 'changed', changedFiles: [file], usage: null, durationMs: 1 };
      },
    });
    coder = { adapter: fixer, prompts, stopped: () => false };
    try {
      const { result } = await fixture.run({
        task: 'write the notes',
        coder: 'fixer',
        model: 'judge/some-model',
        maxTokens: 500,
        extraCoders: [registrationFor(fixer)],
      });
      expect(result).toMatchObject({ status: 'halted', outcome: 'escalated', attempts: 1 });
      expect(readJobState(fixture.root, result.jobId).budget?.exceeded).toMatchObject({
        phase: 'post_execute',
      });
      expect(prompts).toHaveLength(1);
      const approved = await approveJob(approveOptions(result.jobId, { maxTokens: 100_000 }));
      expect(approved).toMatchObject({ status: 'done', outcome: 'merged', attempts: 2 });
      expect(prompts[1]).toContain('## Findings to address');
      expect(prompts[1]).toContain('tests');
      expect(prompts[1]).not.toContain('## Continuing');
    } finally {
      await llm.close();
    }
  });

  it('shows the budget in the plan (flag over protocol) and refuses caps that mean nothing', async () => {
    fixture.cleanup();
    fixture = createPipelineFixture({
      protocol: testProtocol.replace(
        '  max_fix_attempts: 1\n',
        '  max_fix_attempts: 1\n  max_cost_usd: 3\n  max_tokens: 100000\n',
      ),
    });
    const project = await openProject({
      cwd: fixture.root,
      env: fixture.env,
      homeDirectory: fixture.env.HOME as string,
      coders: { registrations: [mockRegistration], defaultCoderId: 'mock', mockCoderId: 'mock' },
    });
    const fromProtocol = await planTask(project, { task: 'add a file', mock: true });
    expect(fromProtocol.budget).toEqual({
      maxCostUsd: { value: 3, source: 'protocol' },
      maxTokens: { value: 100000, source: 'protocol' },
    });
    const fromFlag = await planTask(project, { task: 'add a file', mock: true, maxCostUsd: 0.5 });
    expect(fromFlag.budget.maxCostUsd).toEqual({ value: 0.5, source: 'flag' });
    for (const bad of [
      { maxCostUsd: -1 },
      { maxCostUsd: Number.NaN },
      { maxTokens: 1.5 },
      { maxTokens: 0 },
    ]) {
      await expect(planTask(project, { task: 'add a file', mock: true, ...bad })).rejects.toSatisfy(
        (error: unknown) => BudgetInvalidError.isInstance(error),
      );
    }
    expect(existsSync(join(fixture.root, '.snodo/jobs'))).toBe(false);
  });
});
