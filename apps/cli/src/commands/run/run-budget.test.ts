import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlm } from '@snodo/conformance/fake-llm';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliFixture, createCliFixture } from '../../testing/cli-fixture.js';
import {
  fakeProviderConfig,
  oneJudgeProtocol,
  readThenSubmitScript,
} from '../../testing/direct-llm-scenario.js';
import { snodoInProcess } from '../../testing/in-process-cli.js';

/**
 * Budgets through the binary (issue 15) with the direct LLM coder, which reports its usage after every
 * model call while it runs: the first call alone crosses `--max-tokens`, so the coder is stopped before its
 * second call; `task approve --max-tokens` continues it and the job lands.
 */
let fixture: CliFixture | undefined;
afterEach(() => fixture?.cleanup());

const protocol = oneJudgeProtocol('budget-check');

function auditTypes(root: string): string[] {
  return readFileSync(join(root, '.snodo', 'audit.log'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { type: string }).type);
}

describe('snodo run --max-tokens / task approve --max-tokens', () => {
  it('stops the coder mid-run at the cap, escalates with the spend, refuses a low raise, and lands after a raise', async () => {
    const llm = await startFakeLlm({
      script: readThenSubmitScript(),
    });
    try {
      fixture = createCliFixture({ protocol });
      fixture.writeConfig(fakeProviderConfig(llm.baseUrl.openai));
      const run = await fixture.snodo([
        'run',
        'Add a CONTRIBUTING.md',
        '--coder',
        'litellm',
        '--max-tokens',
        '500',
        '--json',
      ]);
      expect(run.exitCode, run.all).toBe(1);
      const result = JSON.parse(run.stdout) as {
        jobId: string;
        outcome: string;
        summary: string;
        budget: { exceeded: { cap: string; tokens: number; phase: string } };
      };
      expect(result.outcome).toBe('escalated');
      expect(result.summary).toContain('930 of the 500-token cap');
      expect(result.budget.exceeded).toMatchObject({ cap: 'tokens', tokens: 930, phase: 'execute' });
      // Stopped after its first model call: the second (and the judge) waited for the raise.
      expect(llm.mainRequests().length).toBe(1);
      expect(auditTypes(fixture.root)).toContain('budget-exceed');

      const meta = (await snodoInProcess(fixture, ['meta', result.jobId])).stdout;
      expect(meta).toMatch(/budget\s+500 tokens \(flag\) for the whole job/);
      expect(meta).toMatch(/coder\s+\$[0-9.]+, 930 tokens 186%/);
      expect(meta).toContain(`snodo task approve ${result.jobId} --max-tokens <n>`);

      const plain = await fixture.snodo(['task', 'approve', result.jobId, '--reason', 'go on']);
      expect(plain.exitCode).toBe(2);
      expect(plain.stderr).toContain(`snodo task approve ${result.jobId} --max-tokens <n>`);
      const low = await fixture.snodo([
        'task',
        'approve',
        result.jobId,
        '--reason',
        'go on',
        '--max-tokens',
        '930',
      ]);
      expect(low.exitCode).toBe(2);
      expect(low.stderr).toContain('not above the 930 tokens the job has already used');

      const approved = await fixture.snodo([
        'task',
        'approve',
        result.jobId,
        '--reason',
        'worth it',
        '--max-tokens',
        '100000',
        '--json',
      ]);
      expect(approved.exitCode, approved.all).toBe(0);
      expect((JSON.parse(approved.stdout) as { outcome: string }).outcome).toBe('merged');
      expect(fixture.git(['show', 'HEAD:CONTRIBUTING.md'])).toContain('Run pnpm test.');
      // The continued attempt was told it continues.
      expect(llm.requestsContaining('## Continuing').length).toBeGreaterThan(0);
      expect(auditTypes(fixture.root)).toEqual(expect.arrayContaining(['budget-raise', 'job-approve']));
      const shown = (await snodoInProcess(fixture, ['task', 'show', result.jobId])).stdout;
      expect(shown).toMatch(/budget\s+100,000 tokens \(raised on approve\)/);
    } finally {
      await llm.close();
    }
  }, 90_000);

  it('shows the budget in --dry-run and refuses a cap that means nothing', async () => {
    fixture = createCliFixture({ protocol: `${protocol}  max_tokens: 200000\n` });
    const plan = await fixture.snodo(['run', 'Add a file', '--mock', '--dry-run', '--max-cost', '2.5']);
    expect(plan.exitCode, plan.all).toBe(0);
    expect(plan.stdout).toMatch(/budget\s+\$2\.5000 and 200,000 tokens for the whole job/);
    expect(plan.stdout).toContain('--max-cost; protocol execution.max_tokens');
    const json = JSON.parse(
      (await fixture.snodo(['run', 'Add a file', '--mock', '--dry-run', '--json'])).stdout,
    ) as { budget: unknown };
    expect(json.budget).toEqual({ maxCostUsd: null, maxTokens: { value: 200000, source: 'protocol' } });
    for (const bad of [
      ['--max-cost', '-1'],
      ['--max-cost', 'lots'],
      ['--max-tokens', '1.5'],
    ]) {
      const refused = await fixture.snodo(['run', 'Add a file', '--mock', ...bad]);
      expect(refused.exitCode, refused.all).toBe(2);
      expect(refused.stderr).toContain(`${bad[0]} `);
      expect(refused.stderr).toContain('is not a usable cap');
    }
    expect(fixture.git(['branch', '--list', 'snodo/*'])).toBe('');
  }, 60_000);
});
