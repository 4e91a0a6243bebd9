import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlm } from '@snodo/conformance/fake-llm';
import { afterEach, describe, expect, it } from 'vitest';
import { readJobState } from '../jobs/index.js';
import { createPipelineFixture, type PipelineFixture } from '../testing/pipeline-fixture.js';

const twoModes = `protocol_id: routing
name: Routing
initial_mode: builder
modes:
  - mode_id: builder
    name: Builder
    description: New features.
    tools: [edit]
    validators: [check]
  - mode_id: fixer
    name: Fixer
    description: Bug fixes.
    tools: [dispatch]
    validators: [check]
validators:
  - validator_id: check
    validator_type: planning
    evaluation_phase: pre_execute
    criteria: [The task is clear.]
disagreement_policy: unanimous
`;

let fixture: PipelineFixture;
afterEach(() => fixture.cleanup());

function classifierConfig(baseUrl: string): string {
  // Roles configured apart: -m would set the classifier's model as well as the judges' (SPEC §4.4).
  return `providers:\n  fake:\n    base_url: ${baseUrl}\n    api_key: test-key-123456\nllm:\n  classifier:\n    model: fake/router\n  validator:\n    model: mock/pass\n`;
}

describe('classification', () => {
  it('asks the classifier model to choose among several executing modes, and records its answer', async () => {
    const llm = await startFakeLlm({
      script: [{ json: { mode_id: 'fixer', flow_type: 'defect', reason: 'the task fixes a crash' } }],
    });
    try {
      fixture = createPipelineFixture({ protocol: twoModes });
      writeFileSync(join(fixture.snodoHome, 'config.yml'), classifierConfig(llm.baseUrl.openai), {
        mode: 0o600,
      });
      // Not --mock: that would make the classifier the offline mock model as well.
      const { result } = await fixture.run({ task: 'Fix the crash on empty input', coder: 'mock' });
      expect(llm.problems).toEqual([]);
      expect(result.outcome).toBe('merged');
      const state = readJobState(fixture.root, result.jobId);
      expect(state).toMatchObject({ mode: 'fixer', flowType: 'defect' });
      expect(state.usage.classifier).toMatchObject({ calls: 1 });
      const classifyRequest = llm.mainRequests()[0];
      expect(JSON.stringify(classifyRequest?.body)).toContain('Fix the crash on empty input');
      expect(JSON.stringify(classifyRequest?.body)).toContain('fixer');
      const classify = readFileSync(join(fixture.root, '.snodo/audit.log'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> })
        .find((event) => event.type === 'task-classify');
      expect(classify?.data).toMatchObject({ mode: 'fixer', mode_source: 'classifier', flow_type: 'defect' });
    } finally {
      await llm.close();
    }
  }, 30_000);

  it('makes no model call when only one mode can execute; the flow type comes from the task words', async () => {
    const llm = await startFakeLlm({ script: [] });
    try {
      fixture = createPipelineFixture();
      writeFileSync(join(fixture.snodoHome, 'config.yml'), classifierConfig(llm.baseUrl.openai), {
        mode: 0o600,
      });
      const { result } = await fixture.run({ task: 'Refactor the parser module', coder: 'mock' });
      expect(result.outcome).toBe('merged');
      expect(llm.requests).toHaveLength(0);
      expect(readJobState(fixture.root, result.jobId)).toMatchObject({ mode: 'producer', flowType: 'debt' });
    } finally {
      await llm.close();
    }
  });

  it('honours --mode without asking, and refuses an unknown one before creating a job', async () => {
    fixture = createPipelineFixture({ protocol: twoModes });
    const { result } = await fixture.run({ task: 'add a file', mock: true, mode: 'builder' });
    expect(readJobState(fixture.root, result.jobId).mode).toBe('builder');
    await expect(fixture.run({ task: 'add a file', mock: true, mode: 'nope' })).rejects.toMatchObject({
      code: 'MODE_UNKNOWN',
    });
  });
});

const withReviewer = `protocol_id: review
name: Review
initial_mode: builder
modes:
  - mode_id: builder
    name: Builder
    tools: [edit]
    validators: [check]
  - mode_id: reviewer
    name: Reviewer
    tools: [read, review]
    validators: [check]
validators:
  - validator_id: check
    validator_type: planning
    evaluation_phase: pre_execute
    criteria: [The task is clear.]
disagreement_policy: unanimous
`;

describe('modes that cannot change code', () => {
  it('refuses --mode reviewer before a job, a workspace or a branch exists (it used to run and merge)', async () => {
    fixture = createPipelineFixture({ protocol: withReviewer });
    const branchesBefore = fixture.git(['branch', '--list']);
    const refused = await fixture.run({ task: 'add a file', mock: true, mode: 'reviewer' }).then(
      () => undefined,
      (error: unknown) => error as { code?: string; message?: string },
    );
    expect(refused?.code).toBe('MODE_CANNOT_CHANGE_CODE');
    expect(refused?.message).toContain("Mode 'reviewer' cannot change code");
    expect(refused?.message).toContain('--mode builder');
    expect(existsSync(join(fixture.root, '.snodo', 'jobs'))).toBe(false);
    expect(fixture.git(['branch', '--list'])).toBe(branchesBefore);
  });

  it('refuses a protocol in which no mode can change code', async () => {
    fixture = createPipelineFixture({
      protocol: withReviewer
        .replace('tools: [edit]', 'tools: [plan]')
        .replace('initial_mode: builder', 'initial_mode: reviewer'),
    });
    await expect(fixture.run({ task: 'add a file', mock: true })).rejects.toMatchObject({
      code: 'MODE_CANNOT_CHANGE_CODE',
    });
  });
});
