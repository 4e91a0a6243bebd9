import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoderV1Request } from '@snodo/coder-sdk';
import { MockCoderAdapterV1 } from '@snodo/coder-sdk/test';
import { startFakeLlm } from '@snodo/conformance/fake-llm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJobState } from '../jobs/index.js';
import { createPipelineFixture, type PipelineFixture, registrationFor } from '../testing/pipeline-fixture.js';

let fixture: PipelineFixture;
beforeEach(() => {
  fixture = createPipelineFixture();
});
afterEach(() => fixture.cleanup());

function trunkTip(): string {
  return fixture.git(['rev-parse', 'trunk']);
}

describe('runTask halts', () => {
  it('stops before execution on a pre-execute blocker: the coder never runs, the base is untouched', async () => {
    const before = trunkTip();
    const { result } = await fixture.run({ task: 'add a file', mock: true, model: 'mock/blocker' });
    expect(result).toMatchObject({ status: 'halted', outcome: 'blocker', attempts: 0 });
    expect(result.summary).toContain('before the coder ran');
    expect(trunkTip()).toBe(before);
    expect(readJobState(fixture.root, result.jobId).attempts).toEqual([]);
    expect(result.nextSteps).toContain(`snodo task abandon ${result.jobId}`);
    // Nothing was changed, so nothing is kept: the workspace is made only once the pre-execute gates pass.
    expect(result.worktreePath).toBeUndefined();
    expect(fixture.git(['branch', '--list', 'snodo/*'])).toBe('');
    expect((await fixture.verifyAudit()).ok).toBe(true);
  });

  it('escalates when a judge warns under a unanimous policy, and tells how to approve or reject', async () => {
    const { result } = await fixture.run({ task: 'add a file', mock: true, model: 'mock/warn' });
    expect(result).toMatchObject({ status: 'halted', outcome: 'escalated' });
    expect(result.nextSteps).toEqual(
      expect.arrayContaining([
        expect.stringContaining('snodo task approve'),
        expect.stringContaining('snodo task reject'),
      ]),
    );
  });

  it('fails as an outage when the judge LLM fails: fail closed, never a silent warn, never a verdict', async () => {
    const llm = await startFakeLlm({
      script: [
        { error: { status: 500, message: 'upstream down' } },
        { error: { status: 500, message: 'upstream down' } },
        { error: { status: 500, message: 'upstream down' } },
      ],
    });
    writeFileSync(
      join(fixture.snodoHome, 'config.yml'),
      `providers:\n  judge:\n    base_url: ${llm.baseUrl.openai}\n    api_key: test-key\n`,
      { mode: 0o600 },
    );
    try {
      const { result } = await fixture.run({ task: 'add a file', coder: 'mock', model: 'judge/some-model' });
      // The provider answered 500: the gate could not decide (exit 3 in the CLI), it did not reject the change.
      expect(result).toMatchObject({ status: 'failed', outcome: 'gate_unavailable' });
      expect(result.error).toMatchObject({ code: 'LLM_CALL_FAILED' });
      expect(result.verdicts[0]).toMatchObject({ gateId: 'task-review', error: true, severity: 'blocker' });
    } finally {
      await llm.close();
    }
  }, 30_000);

  it('blocks a coder that edits .snodo/protocol.yml: nothing is merged and the rules stay as they were', async () => {
    const protocolBefore = readFileSync(join(fixture.root, '.snodo/protocol.yml'), 'utf8');
    const before = trunkTip();
    const rogue = new MockCoderAdapterV1({
      id: 'rogue',
      kind: 'in-place',
      doRun: async (request: CoderV1Request) => {
        writeFileSync(join(request.workspace, '.snodo/protocol.yml'), 'protocol_id: pwned\n');
        fixture.git(['add', '--all'], request.workspace);
        fixture.git(['commit', '--quiet', '-m', 'loosen the rules'], request.workspace);
        return { status: 'changed', changedFiles: ['.snodo/protocol.yml'], usage: null, durationMs: 1 };
      },
    });
    const { result } = await fixture.run({
      task: 'relax the rules',
      coder: 'rogue',
      model: 'mock/pass',
      extraCoders: [registrationFor(rogue)],
    });
    expect(result).toMatchObject({ status: 'halted', outcome: 'snodo_mutation_blocked' });
    expect(result.error?.code).toBe('SNODO_MUTATION_BLOCKED');
    expect(trunkTip()).toBe(before);
    expect(readFileSync(join(fixture.root, '.snodo/protocol.yml'), 'utf8')).toBe(protocolBefore);
  });

  it('refuses an engine-managed proposal under .snodo/ and writes nothing', async () => {
    const proposer = new MockCoderAdapterV1({
      id: 'proposer',
      doRun: {
        status: 'changed',
        proposals: [
          { path: 'src/ok.ts', action: 'write', content: 'export {};\n' },
          { path: '.snodo/protocol.yml', action: 'write', content: 'protocol_id: pwned\n' },
        ],
        changedFiles: [],
        usage: null,
        durationMs: 1,
      },
    });
    const { result } = await fixture.run({
      task: 'x',
      coder: 'proposer',
      model: 'mock/pass',
      extraCoders: [registrationFor(proposer)],
    });
    expect(result).toMatchObject({ status: 'halted', outcome: 'proposal_refused' });
    expect(result.summary).toContain('.snodo/protocol.yml');
    const worktree = readJobState(fixture.root, result.jobId).isolation?.worktreePath as string;
    expect(fixture.git(['status', '--porcelain'], worktree)).toBe('');
  });

  it('catches a secret planted in the diff with the no_secrets_in_diff constraint', async () => {
    const planted = 'AKIAIOSFODNN7EXAMPLE';
    const leaky = new MockCoderAdapterV1({
      id: 'leaky',
      doRun: {
        status: 'changed',
        proposals: [{ path: 'config.js', action: 'write', content: `export const key = "${planted}";\n` }],
        changedFiles: ['config.js'],
        usage: null,
        durationMs: 1,
      },
    });
    const before = trunkTip();
    const { result } = await fixture.run({
      task: 'add config',
      coder: 'leaky',
      model: 'mock/pass',
      extraCoders: [registrationFor(leaky)],
    });
    expect(result).toMatchObject({ status: 'halted', outcome: 'blocker' });
    const verdict = result.verdicts.find((entry) => entry.gateId === 'no-secrets');
    expect(verdict).toMatchObject({ severity: 'blocker' });
    expect(trunkTip()).toBe(before);
    // The evidence masks the key: the audit log never holds it whole.
    expect(readFileSync(join(fixture.root, '.snodo/audit.log'), 'utf8')).not.toContain(planted);
  });
});

describe('judges see the real diff', () => {
  it('sends post-execute judges the diff base..HEAD and the file list; pre-execute judges get the task only', async () => {
    const llm = await startFakeLlm({
      script: [
        { verdict: { severity: 'pass', justification: 'clear task', findings: [] } },
        { verdict: { severity: 'pass', justification: 'no secrets', findings: [] } },
      ],
    });
    const marker = 'export const greeting = "hello from the diff";';
    const coder = new MockCoderAdapterV1({
      id: 'writer',
      doRun: {
        status: 'changed',
        proposals: [{ path: 'src/greeting.ts', action: 'write', content: `${marker}\n` }],
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
      const judged = llm.mainRequests();
      expect(judged).toHaveLength(2);
      expect(JSON.stringify(judged[0]?.body)).not.toContain('hello from the diff');
      expect(JSON.stringify(judged[1]?.body)).toContain('hello from the diff');
      expect(JSON.stringify(judged[1]?.body)).toContain('src/greeting.ts');
      const state = readJobState(fixture.root, result.jobId);
      expect(state.usage.judges).toMatchObject({ inputTokens: 200, outputTokens: 40, calls: 2 });
      // The provider key is registered as a secret: it never reaches the audit log.
      expect(readFileSync(join(fixture.root, '.snodo/audit.log'), 'utf8')).not.toContain('test-key-123456');
    } finally {
      await llm.close();
    }
  }, 30_000);
});
