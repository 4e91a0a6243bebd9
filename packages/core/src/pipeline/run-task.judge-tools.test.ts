import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MockCoderAdapterV1 } from '@snodo/coder-sdk/test';
import { startFakeLlm } from '@snodo/conformance/fake-llm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJobState } from '../jobs/index.js';
import { createPipelineFixture, type PipelineFixture, registrationFor } from '../testing/pipeline-fixture.js';

// Judges that look, through a whole run: the pre-execute judge reads the base commit, the post-execute
// judge the commit under judgement, and every call lands in state.json and the gate's evidence file.

const protocol = `protocol_id: test
name: Test protocol
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit, dispatch]
    validators: [task-review, security]
validators:
  - validator_id: task-review
    validator_type: planning
    evaluation_phase: pre_execute
    criteria: [The task is clear.]
    tools: [list_files]
  - validator_id: security
    validator_type: security
    evaluation_phase: post_execute
    criteria: [No credentials are added.]
    tools: [read_file, read_diff_between_refs]
    max_turns: 3
disagreement_policy: unanimous
execution:
  max_fix_attempts: 0
`;

let fixture: PipelineFixture;
beforeEach(() => {
  fixture = createPipelineFixture({ protocol });
});
afterEach(() => fixture.cleanup());

describe('runTask with judges that have tools', () => {
  it('records every tool call with its verdict in state.json and the evidence file', async () => {
    const llm = await startFakeLlm({
      script: [
        { toolCall: { name: 'list_files', input: {} } },
        { verdict: { severity: 'pass', justification: 'Seen: {{lastToolResult}}', findings: [] } },
        { toolCall: { name: 'read_file', input: { path: 'src/greeting.ts' } } },
        { verdict: { severity: 'pass', justification: 'Read: {{lastToolResult}}', findings: [] } },
      ],
    });
    const coder = new MockCoderAdapterV1({
      id: 'writer',
      doRun: {
        status: 'changed',
        proposals: [{ path: 'src/greeting.ts', action: 'write', content: 'export const greeting = "hi";\n' }],
        changedFiles: ['src/greeting.ts'],
        usage: null,
        durationMs: 1,
      },
    });
    mkdirSync(fixture.snodoHome, { recursive: true });
    writeFileSync(
      join(fixture.snodoHome, 'config.yml'),
      `providers:\n  judge:\n    base_url: ${llm.baseUrl.openai}\n    api_key: test-key-123456\n`,
      { mode: 0o600 },
    );
    try {
      const { result } = await fixture.run({
        task: 'add a greeting',
        coder: 'writer',
        model: 'judge/judge-model',
        extraCoders: [registrationFor(coder)],
      });
      expect(llm.problems).toEqual([]);
      expect(result).toMatchObject({ status: 'done', outcome: 'merged' });
      const state = readJobState(fixture.root, result.jobId);
      const pre = state.verdicts.find((verdict) => verdict.gateId === 'task-review');
      const post = state.verdicts.find((verdict) => verdict.gateId === 'security');
      // Before execution the judge reads the base: the greeting does not exist there yet.
      expect(pre).toMatchObject({ gateId: 'task-review', severity: 'pass' });
      expect(pre?.justification).toContain('README.md');
      expect(pre?.justification).not.toContain('greeting');
      expect(pre?.toolCalls).toEqual([
        { tool: 'list_files', input: '{}', ok: true, bytes: expect.any(Number) },
      ]);
      expect(post).toMatchObject({ gateId: 'security', severity: 'pass' });
      expect(post?.justification).toContain('1: export const greeting = "hi";');
      expect(post?.toolCalls).toEqual([
        { tool: 'read_file', input: '{"path":"src/greeting.ts"}', ok: true, bytes: expect.any(Number) },
      ]);
      // Four model calls, all counted for the judges.
      expect(state.usage.judges).toMatchObject({ inputTokens: 400, outputTokens: 80, calls: 2 });
      const gates = join(fixture.root, '.snodo/jobs', result.jobId, 'gates');
      const evidence = readdirSync(gates).find((name) => name.includes('security'));
      expect(JSON.parse(readFileSync(join(gates, evidence as string), 'utf8')).toolCalls).toHaveLength(1);
      // The audit log's gate-verdict event carries the calls too.
      const events = readFileSync(join(fixture.root, '.snodo/audit.log'), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
      const audited = events.find(
        (event) => event.type === 'gate-verdict' && event.data.gate_id === 'security',
      );
      expect(audited?.data.tool_calls).toEqual([expect.objectContaining({ tool: 'read_file', ok: true })]);
    } finally {
      await llm.close();
    }
  }, 60_000);
});
