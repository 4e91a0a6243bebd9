import { afterEach, describe, expect, it } from 'vitest';
import { protocolValidationJsonSchema } from '../../json/environment-json-schemas.js';
import { type CliFixture, createCliFixture, TEST_PROTOCOL } from '../../testing/cli-fixture.js';
import { snodoInProcess } from '../../testing/in-process-cli.js';

describe('snodo protocol validate', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => fixture?.cleanup());

  it('accepts a valid protocol (exit 0)', async () => {
    fixture = createCliFixture();
    const validate = await snodoInProcess(fixture, ['protocol', 'validate']);
    expect(validate.exitCode, validate.all).toBe(0);
    expect(validate.stdout).toContain('.snodo/protocol.yml is valid');
  });

  it('prints each problem as file:line:column: message and exits 2', async () => {
    fixture = createCliFixture();
    fixture.write(
      'other.yml',
      TEST_PROTOCOL.replace(
        'validators: [task-review, security, tests]',
        'validators: [task-review, sekurity, tests]',
      ).replace('initial_mode: producer', 'initial_mode: producer\nquorum: 2'),
    );
    const validate = await snodoInProcess(fixture, ['protocol', 'validate', 'other.yml']);
    expect(validate.exitCode, validate.all).toBe(2);
    expect(validate.stdout).toMatch(/^other\.yml:4:1: warning: unknown key `quorum`/m);
    expect(validate.stdout).toMatch(/^other\.yml:9:31: .*sekurity/m);
    expect(validate.stdout).toContain('1 error(s), 1 warning(s)');

    const json = await snodoInProcess(fixture, ['protocol', 'validate', 'other.yml', '--json']);
    expect(json.exitCode).toBe(2);
    const report = protocolValidationJsonSchema.parse(JSON.parse(json.stdout));
    expect(report).toMatchObject({ valid: false, errors: 1, warnings: 1 });
    expect(report.issues.find((issue) => issue.severity === 'error')).toMatchObject({ line: 9, column: 31 });
  });

  it('turns unknown keys into errors under --strict', async () => {
    fixture = createCliFixture();
    fixture.write('.snodo/protocol.yml', `${TEST_PROTOCOL}colour: blue\n`);
    expect((await snodoInProcess(fixture, ['protocol', 'validate'])).exitCode).toBe(0);
    const strict = await snodoInProcess(fixture, ['protocol', 'validate', '--strict']);
    expect(strict.exitCode).toBe(2);
    expect(strict.stdout).toMatch(/\.snodo\/protocol\.yml:\d+:1: .*colour/);
  });
});
