import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MockCoderAdapterV1 } from '@snodo/coder-sdk/test';
import { afterEach, describe, expect, it } from 'vitest';
import { readJobState } from '../jobs/index.js';
import { sandboxMissing } from '../testing/hostile-coder.js';
import {
  createPipelineFixture,
  type PipelineFixture,
  registrationFor,
  testProtocol,
} from '../testing/pipeline-fixture.js';

// `execution.sandbox: auto | required | off` (issue 11, item 2): what each does where bubblewrap works, where
// it does not (simulated with SNODO_SANDBOX_EXECUTABLE pointing at nothing), and what config may change.

let fixture: PipelineFixture;
afterEach(() => fixture.cleanup());

function withSandbox(mode: string, config?: string): PipelineFixture {
  fixture = createPipelineFixture({
    protocol: testProtocol.replace('execution:\n', `execution:\n  sandbox: ${mode}\n`),
    ...(config ? { config } : {}),
  });
  return fixture;
}

const noBubblewrap = { SNODO_SANDBOX_EXECUTABLE: '/nonexistent/bwrap' };

async function refusal(run: Promise<unknown>): Promise<{ code?: string; message?: string }> {
  return run.then(
    () => ({}),
    (error: unknown) => error as { code?: string; message?: string },
  );
}

describe('execution.sandbox', { timeout: 60_000 }, () => {
  it('required without bubblewrap refuses before a job, a workspace or a branch exists, with the install hint', async () => {
    withSandbox('required');
    const error = await refusal(
      fixture.run({ task: 'add a file', mock: true, env: { ...fixture.env, ...noBubblewrap } }),
    );
    expect(error.code).toBe('SANDBOX_UNAVAILABLE');
    expect(error.message).toContain('execution.sandbox: required');
    expect(error.message).toContain('bubblewrap');
    expect(error.message).toContain('apt-get install bubblewrap');
    expect(existsSync(join(fixture.root, '.snodo', 'jobs'))).toBe(false);
    expect(fixture.git(['branch', '--list'])).toBe('* trunk');
  });

  it('required refuses --no-isolation: the user’s own checkout cannot be contained', async () => {
    withSandbox('required');
    const error = await refusal(fixture.run({ task: 'add a file', mock: true, isolation: false }));
    expect(error.code).toBe('SANDBOX_UNAVAILABLE');
    expect(error.message).toContain('--no-isolation');
    expect(existsSync(join(fixture.root, '.snodo', 'jobs'))).toBe(false);
  });

  it('config may make auto required, never required off', async () => {
    withSandbox('auto', 'sandbox:\n  mode: required\n');
    const tightened = await refusal(
      fixture.run({ task: 'x', mock: true, env: { ...fixture.env, ...noBubblewrap } }),
    );
    expect(tightened.code).toBe('SANDBOX_UNAVAILABLE');
    expect(tightened.message).toContain('your config says `sandbox.mode: required`');
    fixture.cleanup();
    withSandbox('required', 'sandbox:\n  mode: off\n');
    const kept = await refusal(
      fixture.run({ task: 'x', mock: true, env: { ...fixture.env, ...noBubblewrap } }),
    );
    expect(kept.code).toBe('SANDBOX_UNAVAILABLE');
  });

  it('auto without bubblewrap runs, warns, and records sandbox: none with the reason', async () => {
    withSandbox('auto');
    const { result, events } = await fixture.run({
      task: 'add a file',
      mock: true,
      env: { ...fixture.env, ...noBubblewrap },
    });
    expect(result.outcome).toBe('merged');
    const warning = events.find(
      (event) =>
        event.type === 'job-note' && event.level === 'warn' && event.message.startsWith('No sandbox'),
    );
    expect(warning).toBeDefined();
    expect(readJobState(fixture.root, result.jobId).sandbox).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('/nonexistent/bwrap'),
    });
    expect(readFileSync(join(fixture.root, '.snodo', 'audit.log'), 'utf8')).toContain('"sandbox":"none"');
  });

  it.skipIf(sandboxMissing !== undefined)(
    'required refuses an in-place coder that does not run in the sandbox',
    async () => {
      withSandbox('required');
      const coder = new MockCoderAdapterV1({ id: 'loose', kind: 'in-place' });
      const { result } = await fixture.run({
        task: 'add a file',
        coder: 'loose',
        model: 'mock/pass',
        extraCoders: [registrationFor(coder)],
      });
      expect(result).toMatchObject({ status: 'failed', error: { code: 'SANDBOX_UNAVAILABLE' } });
      expect(result.error?.message).toContain('does not declare supportsSandbox');
      expect(coder.doRunCalls).toHaveLength(0);
    },
  );
});
