import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type CliFixture, createCliFixture } from '../../testing/cli-fixture.js';
import { snodoInProcess } from '../../testing/in-process-cli.js';

// snodo init on real project shapes: what it detects, from which file, and that it writes both down.

let fixture: CliFixture | undefined;
afterEach(() => fixture?.cleanup());

interface WrittenProtocol {
  modes: { validators: string[] }[];
  validators: { validator_id: string; validator_type: string; tooling?: { test_command?: unknown } }[];
  execution: { setup?: unknown };
}

function written(target: CliFixture): { text: string; protocol: WrittenProtocol } {
  const text = readFileSync(join(target.root, '.snodo', 'protocol.yml'), 'utf8');
  return { text, protocol: parse(text) as WrittenProtocol };
}

function testCommand(protocol: WrittenProtocol): unknown {
  return protocol.validators.find((validator) => validator.validator_id === 'tests')?.tooling?.test_command;
}

describe('snodo init detects the test command and the workspace setup', { timeout: 60_000 }, () => {
  it('an npm package with a mocha test script and a lockfile: npm test, npm ci, both written down', async () => {
    fixture = createCliFixture({ protocol: false });
    fixture.write(
      'package.json',
      JSON.stringify({ name: 'sample', scripts: { test: 'mocha' }, devDependencies: { mocha: '^10.0.0' } }),
    );
    fixture.write('package-lock.json', JSON.stringify({ name: 'sample', lockfileVersion: 3, packages: {} }));
    fixture.commitAll('an npm package');
    const init = await fixture.snodo(['init']);

    expect(init.exitCode, init.all).toBe(0);
    expect(init.stdout).toContain('tests: npm test   (detected from package.json)');
    expect(init.stdout).toContain(
      'setup: npm ci --prefer-offline --no-audit --no-fund   (detected from package-lock.json',
    );
    const { protocol } = written(fixture);
    expect(testCommand(protocol)).toEqual(['npm', 'test']);
    expect(protocol.execution.setup).toEqual(['npm', 'ci', '--prefer-offline', '--no-audit', '--no-fund']);
    const validate = await snodoInProcess(fixture, ['protocol', 'validate', '--strict']);
    expect(validate.exitCode, validate.all).toBe(0);
  });

  it('npm’s placeholder test script counts as no tests, and says why', async () => {
    fixture = createCliFixture({ protocol: false });
    fixture.write(
      'package.json',
      JSON.stringify({ name: 'sample', scripts: { test: 'echo "Error: no test specified" && exit 1' } }),
    );
    fixture.commitAll('npm init');
    const init = await fixture.snodo(['init']);

    expect(init.exitCode, init.all).toBe(0);
    expect(init.stdout).toContain(`tests: none found (package.json's "test" script is npm's placeholder`);
    expect(testCommand(written(fixture).protocol)).toBeUndefined();
  });

  it('a README-only repository: no tests gate, "no tests ran" announced, nothing to install', async () => {
    fixture = createCliFixture({ protocol: false });
    const init = await fixture.snodo(['init']);

    expect(init.exitCode, init.all).toBe(0);
    expect(init.stdout).toContain('runs will report "no tests ran"');
    expect(init.stdout).toContain('setup: nothing to install');
    const { protocol, text } = written(fixture);
    expect(protocol.validators.some((validator) => validator.validator_type === 'quality')).toBe(false);
    expect(protocol.modes.every((mode) => !mode.validators.includes('tests'))).toBe(true);
    expect(protocol.execution.setup).toBe('auto');
    expect(text).toContain('"no tests ran"');
  });

  it('a README-only repository lands a mock run under the default unanimous policy, without escalating', async () => {
    fixture = createCliFixture({ protocol: false });
    expect((await fixture.snodo(['init'])).exitCode).toBe(0);
    fixture.commitAll('Add snodo protocol');
    const run = await fixture.snodo(['run', 'Add a CONTRIBUTING.md with setup steps', '--mock']);

    expect(run.exitCode, run.all).toBe(0);
    expect(run.all).not.toContain('escalat');
    expect(fixture.git(['log', '-1', '--format=%s'])).toMatch(/snodo\(j_/);
  });

  it('a Python project with pyproject.toml: pytest, and no guessed pip install', async () => {
    fixture = createCliFixture({ protocol: false });
    fixture.write('pyproject.toml', '[project]\nname = "sample"\nversion = "0.1.0"\n');
    fixture.write('tests/test_sample.py', 'def test_one():\n    assert True\n');
    fixture.commitAll('a python project');
    const init = await fixture.snodo(['init', '--json']);

    expect(init.exitCode, init.all).toBe(0);
    expect(JSON.parse(init.stdout)).toMatchObject({
      detected: {
        test: { command: ['pytest'], source: 'pyproject.toml' },
        setup: null,
      },
    });
    const { protocol } = written(fixture);
    expect(testCommand(protocol)).toEqual(['pytest']);
    expect(protocol.execution.setup).toBe('auto');
  });

  it('a Go module: go test ./... and go mod download', async () => {
    fixture = createCliFixture({ protocol: false });
    fixture.write('go.mod', 'module example.com/sample\n\ngo 1.22\n');
    fixture.commitAll('a go module');
    const init = await fixture.snodo(['init', '--template', 'team']);

    expect(init.exitCode, init.all).toBe(0);
    expect(init.stdout).toContain('tests: go test ./...   (detected from go.mod)');
    expect(init.stdout).toContain('setup: go mod download   (detected from go.mod');
    const { protocol } = written(fixture);
    expect(testCommand(protocol)).toEqual(['go', 'test', './...']);
    expect(protocol.execution.setup).toEqual(['go', 'mod', 'download']);
  });

  it('a Python project with only pytest.ini and no manifest still gets pytest', async () => {
    fixture = createCliFixture({ protocol: false });
    fixture.write('pytest.ini', '[pytest]\n');
    fixture.commitAll('pytest config');
    const init = await fixture.snodo(['init']);

    expect(init.exitCode, init.all).toBe(0);
    expect(init.stdout).toContain('tests: pytest   (detected from pytest.ini)');
    expect(testCommand(written(fixture).protocol)).toEqual(['pytest']);
  });
});
