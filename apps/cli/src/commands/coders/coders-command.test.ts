import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codersJsonSchema } from '../../json/coder-status-json-schema.js';
import { doctorJsonSchema } from '../../json/environment-json-schemas.js';
import { type CliFixture, createCliFixture, parseJson } from '../../testing/cli-fixture.js';
import { snodoInProcess } from '../../testing/in-process-cli.js';

describe('snodo coders and snodo doctor', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('lists every registered coder with its readiness, and the fix for one that is not ready', async () => {
    fixture = createCliFixture();
    // A model is configured: without one every coder is "not ready" (run-refusals.test.ts covers that).
    fixture.writeConfig(
      'model: mock/pass\ncoders:\n  ghost:\n    command: ["snodo-ghost-cli", "{prompt}"]\n',
    );
    const coders = await snodoInProcess(fixture, ['coders']);
    expect(coders.exitCode, coders.all).toBe(0);
    expect(coders.stdout).toMatch(/litellm \(default\)\s+engine-managed\s+yes/);
    expect(coders.stdout).toMatch(/mock\s+engine-managed\s+yes\s+-\s+not-needed\s+-\s+yes/);
    expect(coders.stdout).toMatch(/ghost\s+in-place\s+no/);
    // Whether each coder's processes run in the sandbox, and whether there is one here.
    expect(coders.stdout).toMatch(/claude-code\s+in-place\s+.*\s+(yes|no sandbox here)\s+no/);
    expect(coders.stdout).toMatch(/^sandbox: (bubblewrap .* run contained|none here: .+)$/m);
    expect(coders.stdout).toContain('coders.ghost.binary');

    const json = codersJsonSchema.parse(parseJson(await snodoInProcess(fixture, ['coders', '--json'])));
    const readiness = Object.fromEntries(json.coders.map((coder) => [coder.id, coder.ready]));
    expect(Object.keys(readiness)).toEqual([
      'mock',
      'litellm',
      'openai',
      'anthropic',
      'gemini',
      'opencode',
      'claude-code',
      'codex',
      'gemini-cli',
      'opencode-cli',
      'agy',
      'ghost',
    ]);
    expect(readiness).toMatchObject({ mock: true, ghost: false });
    const sandboxed = Object.fromEntries(json.coders.map((coder) => [coder.id, coder.sandbox]));
    expect(sandboxed).toMatchObject({ mock: 'not-needed', 'claude-code': 'supported', ghost: 'supported' });
    expect(typeof json.sandbox.available).toBe('boolean');
  });

  it('works outside a repository too', async () => {
    fixture = createCliFixture({ git: false });
    const coders = await snodoInProcess(fixture, ['coders'], { cwd: fixture.home });
    expect(coders.exitCode, coders.all).toBe(0);
    expect(coders.stdout).toContain('litellm (default)');
  });

  it('doctor exits 0 when a run can work here, naming provider keys found without their values', async () => {
    fixture = createCliFixture();
    fixture.writeConfig('model: mock/pass\n');
    const doctor = await snodoInProcess(fixture, ['doctor'], {
      env: { ANTHROPIC_API_KEY: 'sk-ant-secret-value-123' },
    });
    expect(doctor.exitCode, doctor.all).toBe(0);
    expect(doctor.stdout).toMatch(/✔\s+git\s+\d+\.\d+/);
    expect(doctor.stdout).toMatch(/✔\s+protocol\s+\.snodo\/protocol\.yml \(test, 1 mode\(s\)\)/);
    expect(doctor.stdout).toMatch(/✔\s+coder litellm\s+ready .*\(default\)/);
    expect(doctor.stdout).toMatch(/✔\s+coder anthropic\s+ready/);
    expect(doctor.stdout).toContain('in the environment: ANTHROPIC_API_KEY');
    expect(doctor.stdout).not.toContain('sk-ant-secret-value-123');
    expect(doctor.stdout).toContain('No problems');
  });

  it('doctor says whether the sandbox works here, and fails only when the protocol requires one', async () => {
    fixture = createCliFixture();
    fixture.writeConfig('model: mock/pass\n');
    const here = await snodoInProcess(fixture, ['doctor', '--json']);
    const sandbox = doctorJsonSchema.parse(parseJson(here)).checks.find((check) => check.name === 'sandbox');
    expect(sandbox?.status === 'ok' ? sandbox.detail : sandbox?.status).toMatch(/bubblewrap .*auto|warn/);
    const missing = { SNODO_SANDBOX_EXECUTABLE: '/nonexistent/bwrap' };
    const auto = await snodoInProcess(fixture, ['doctor'], { env: missing });
    expect(auto.exitCode, auto.all).toBe(0);
    expect(auto.stdout).toMatch(/!\s+sandbox\s+none \(auto\): bubblewrap is not at the configured path/);
    fixture.write(
      '.snodo/protocol.yml',
      readFileSync(join(fixture.root, '.snodo', 'protocol.yml'), 'utf8').replace(
        'execution:\n',
        'execution:\n  sandbox: required\n',
      ),
    );
    const required = await snodoInProcess(fixture, ['doctor'], { env: missing });
    expect(required.exitCode, required.all).toBe(1);
    expect(required.stdout).toMatch(/✘\s+sandbox\s+none \(required\)/);
  });

  it('doctor exits 1 with a fix per problem when there is no protocol', async () => {
    fixture = createCliFixture({ protocol: false });
    const doctor = await snodoInProcess(fixture, ['doctor', '--json']);
    expect(doctor.exitCode, doctor.all).toBe(1);
    const report = doctorJsonSchema.parse(JSON.parse(doctor.stdout));
    expect(report.ok).toBe(false);
    expect(report.checks.find((check) => check.name === 'protocol')).toMatchObject({
      status: 'fail',
      fix: 'snodo init, then commit the file',
    });
  });
});
