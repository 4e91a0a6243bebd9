import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jobDetailsJsonSchema } from './json/job-json-schemas.js';
import { type CliFixture, createCliFixture } from './testing/cli-fixture.js';
import { loadedModules } from './testing/loaded-modules.js';

const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
  version: string;
};

/** Specifiers that must not be resolved on the way to `--help`: the AI SDK, core, and every coder. */
const HEAVY = [/^ai$/, /^@ai-sdk\//, /^@snodo\/core$/, /^@snodo\/coder-/, /^@snodo\/llm$/];

describe('the snodo binary', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => {
    fixture?.cleanup();
    fixture = undefined;
  });

  /** Runs the binary outside a repository and returns every specifier it imported. */
  async function traceImports(
    args: readonly string[],
  ): Promise<{ exitCode: number; specifiers: readonly string[] }> {
    fixture ??= createCliFixture({ git: false });
    const { result, specifiers } = await loadedModules(fixture, args, { cwd: fixture.home });
    return { exitCode: result.exitCode ?? -1, specifiers };
  }

  it('starts lazily: --help, --version and a command’s help load no AI SDK, no core, no coder', async () => {
    for (const args of [['--help'], ['--version'], ['run', '--help'], ['task', 'approve', '--help']]) {
      const { exitCode, specifiers } = await traceImports(args);
      expect(exitCode, args.join(' ')).toBe(0);
      // The hook saw the entry and its chunks, so an import of core would have been seen too.
      expect(
        specifiers.some((specifier) => specifier.endsWith('dist/cli.js')),
        args.join(' '),
      ).toBe(true);
      expect(
        specifiers.some((specifier) => specifier.startsWith('./chunk-')),
        args.join(' '),
      ).toBe(true);
      const heavy = specifiers.filter((specifier) => HEAVY.some((pattern) => pattern.test(specifier)));
      expect(heavy, args.join(' ')).toEqual([]);
    }
  });

  it('loads core only when a command needs it (the trace would catch it)', async () => {
    // `task list` needs core's lean jobs entry (outside a repository it fails, after loading it), never
    // the whole of core or a coder.
    const { specifiers } = await traceImports(['task', 'list']);
    expect(specifiers).toContain('@snodo/core/jobs');
    expect(specifiers).not.toContain('@snodo/core');
    expect(specifiers).not.toContain('@snodo/coder-mock');
    // `coders` asks each coder whether it can run, so it loads them, and all of core.
    const coders = (await traceImports(['coders'])).specifiers;
    expect(coders).toContain('@snodo/coder-mock');
    expect(coders).toContain('@snodo/core');
  });

  it('prints the package version and help with every command', async () => {
    fixture = createCliFixture({ git: false });
    const version = await fixture.snodo(['--version'], { cwd: fixture.home });
    expect(version.stdout.trim()).toBe(manifest.version);
    const help = await fixture.snodo(['--help'], { cwd: fixture.home });
    expect(help.exitCode).toBe(0);
    for (const command of [
      'init',
      'run',
      'coders',
      'doctor',
      'config',
      'meta',
      'logs',
      'task',
      'audit',
      'protocol',
      'models',
    ]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
    const runHelp = await fixture.snodo(['run', '--help'], { cwd: fixture.home });
    for (const flag of [
      '--coder',
      '-m, --model',
      '--mock',
      '--mode',
      '--no-isolation',
      '--base',
      '--merge',
      '--timeout',
      '--json',
      '--dry-run',
    ]) {
      expect(runHelp.stdout).toContain(flag);
    }
  });

  it('answers an unknown command with a suggestion and exit 2', async () => {
    fixture = createCliFixture({ git: false });
    const result = await fixture.snodo(['rnu', 'x'], { cwd: fixture.home });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("error: unknown command 'rnu'");
    expect(result.stderr).toContain('(Did you mean run?)');
  });

  it('colours on request and honours NO_COLOR over FORCE_COLOR', async () => {
    fixture = createCliFixture();
    const coloured = await fixture.snodo(['coders'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(coloured.stdout).toContain('\u001b[');
    const plain = await fixture.snodo(['coders'], { env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(plain.stdout).not.toContain('\u001b[');
    expect(plain.stdout).toContain('litellm (default)');
  });

  it('snodo meta --json prints the job record, valid against its schema; a job prefix works', async () => {
    fixture = createCliFixture();
    const run = await fixture.snodo(['run', 'Add a file', '--mock', '--json']);
    const { jobId } = JSON.parse(run.stdout) as { jobId: string };
    const meta = await fixture.snodo(['meta', jobId.slice(0, 5), '--json']);
    expect(meta.exitCode, meta.all).toBe(0);
    const details = jobDetailsJsonSchema.parse(JSON.parse(meta.stdout));
    expect(details.state).toMatchObject({ jobId, status: 'done', outcome: 'merged' });
    expect(details.state.coder).toMatchObject({ id: 'mock', source: 'mock-flag' });
    expect(Object.keys(details.state.stages)).toEqual(
      expect.arrayContaining([
        'classify',
        'resolve',
        'isolate',
        'pre-gates',
        'execute',
        'post-gates',
        'land',
      ]),
    );
  });
});
