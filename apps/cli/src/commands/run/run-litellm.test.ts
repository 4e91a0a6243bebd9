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
 * The default coder end to end through the binary: the model reads a file with its read-only tool, then
 * submits the edit with `submit_files`; snodo checks and writes it, the judge (on another model) passes
 * it, and it lands. Coder and judges are priced and recorded separately.
 */
let fixture: CliFixture | undefined;
afterEach(() => fixture?.cleanup());

const protocol = oneJudgeProtocol('litellm-check');

describe('snodo run --coder litellm', () => {
  it('reads a file, submits an edit that lands, and records coder and judge usage and cost apart', async () => {
    const llm = await startFakeLlm({
      script: readThenSubmitScript(),
    });
    try {
      fixture = createCliFixture({ protocol });
      fixture.writeConfig(fakeProviderConfig(llm.baseUrl.openai));
      const run = await fixture.snodo(['run', 'Add a CONTRIBUTING.md', '--coder', 'litellm', '--json']);
      expect(run.exitCode, run.all).toBe(0);
      expect(llm.problems).toEqual([]);
      const result = JSON.parse(run.stdout) as { jobId: string; outcome: string };
      expect(result.outcome).toBe('merged');
      expect(fixture.git(['show', 'HEAD:CONTRIBUTING.md'])).toContain('Run pnpm test.');
      // The model saw the file it asked for, through the tool result.
      expect(llm.requestsContaining('# sample').length).toBeGreaterThan(0);

      const meta = JSON.parse((await snodoInProcess(fixture, ['meta', result.jobId, '--json'])).stdout) as {
        state: {
          models: { coder: { model: string }; judging: { model: string } };
          usage: Record<
            string,
            { inputTokens: number; outputTokens: number; costUsd: number | null; models: string[] }
          >;
        };
      };
      expect(meta.state.models.coder.model).toBe('fake/gpt-4o');
      expect(meta.state.models.judging.model).toBe('fake/gpt-4o-mini');
      expect(meta.state.usage.coder).toMatchObject({ inputTokens: 2100, outputTokens: 110 });
      expect(meta.state.usage.judges).toMatchObject({ inputTokens: 700, outputTokens: 40 });
      expect(meta.state.usage.coder?.costUsd).toBeGreaterThan(0);
      expect(meta.state.usage.judges?.costUsd).toBeGreaterThan(0);
      const screen = (await snodoInProcess(fixture, ['meta', result.jobId])).stdout;
      expect(screen).toMatch(/coder/);
      expect(screen).toMatch(/judges/);
      expect(screen).toContain('$');
      // The provider key never reaches the audit log, and the checkout stays clean.
      expect(readFileSync(join(fixture.root, '.snodo', 'audit.log'), 'utf8')).not.toContain(
        'sk-fake-key-0123456789',
      );
      expect(fixture.git(['status', '--porcelain'])).toBe('');
    } finally {
      await llm.close();
    }
  }, 60_000);
});
