import { afterEach, describe, expect, it } from 'vitest';
import { codersJsonSchema } from '../../json/coder-status-json-schema.js';
import { doctorJsonSchema } from '../../json/environment-json-schemas.js';
import { type CliFixture, createCliFixture, parseJson } from '../../testing/cli-fixture.js';

describe('snodo coders and snodo doctor', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('lists every registered coder with its readiness, and the fix for one that is not ready', async () => {
    fixture = createCliFixture();
    fixture.writeConfig('coders:\n  ghost:\n    command: ["snodo-ghost-cli", "{prompt}"]\n');
    const coders = await fixture.snodo(['coders']);
    expect(coders.exitCode, coders.all).toBe(0);
    expect(coders.stdout).toMatch(/litellm \(default\)\s+engine-managed\s+yes/);
    expect(coders.stdout).toMatch(/mock\s+engine-managed\s+yes\s+-\s+not-needed\s+yes/);
    expect(coders.stdout).toMatch(/ghost\s+in-place\s+no/);
    expect(coders.stdout).toContain('coders.ghost.binary');

    const json = codersJsonSchema.parse(parseJson(await fixture.snodo(['coders', '--json'])));
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
  });

  it('works outside a repository too', async () => {
    fixture = createCliFixture({ git: false });
    const coders = await fixture.snodo(['coders'], { cwd: fixture.home });
    expect(coders.exitCode, coders.all).toBe(0);
    expect(coders.stdout).toContain('litellm (default)');
  });

  it('doctor exits 0 when a run can work here, naming provider keys found without their values', async () => {
    fixture = createCliFixture();
    const doctor = await fixture.snodo(['doctor'], { env: { ANTHROPIC_API_KEY: 'sk-ant-secret-value-123' } });
    expect(doctor.exitCode, doctor.all).toBe(0);
    expect(doctor.stdout).toMatch(/✔\s+git\s+\d+\.\d+/);
    expect(doctor.stdout).toMatch(/✔\s+protocol\s+\.snodo\/protocol\.yml \(test, 1 mode\(s\)\)/);
    expect(doctor.stdout).toMatch(/✔\s+coder litellm\s+ready .*\(default\)/);
    expect(doctor.stdout).toMatch(/✔\s+coder anthropic\s+ready/);
    expect(doctor.stdout).toContain('in the environment: ANTHROPIC_API_KEY');
    expect(doctor.stdout).not.toContain('sk-ant-secret-value-123');
    expect(doctor.stdout).toContain('No problems');
  });

  it('doctor exits 1 with a fix per problem when there is no protocol', async () => {
    fixture = createCliFixture({ protocol: false });
    const doctor = await fixture.snodo(['doctor', '--json']);
    expect(doctor.exitCode, doctor.all).toBe(1);
    const report = doctorJsonSchema.parse(JSON.parse(doctor.stdout));
    expect(report.ok).toBe(false);
    expect(report.checks.find((check) => check.name === 'protocol')).toMatchObject({
      status: 'fail',
      fix: 'snodo init, then commit the file',
    });
  });
});
