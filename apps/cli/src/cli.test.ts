import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { jobDetailsJsonSchema } from './json/job-json-schemas.js';
import { type CliFixture, createCliFixture } from './testing/cli-fixture.js';
import { loadedModules } from './testing/loaded-modules.js';

const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
  version: string;
};

/** A coder's own package (`packages/coder-mock/…`), not the SDK every coder shares. */
const CODER = 'coder-(?!sdk/)[^/]+';
/** Code that must not be loaded on the way to `--help`: the AI SDK, core, the LLM layer, every coder. */
const HEAVY = new RegExp(`/node_modules/(ai|@ai-sdk/[^/]+)/|/packages/(core|llm|${CODER})/`);

describe('the snodo binary', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => {
    fixture?.cleanup();
    fixture = undefined;
  });

  /** Runs the binary outside a repository and returns the files the code it loaded was built from. */
  async function traceImports(
    args: readonly string[],
  ): Promise<{ exitCode: number; sources: readonly string[]; urls: readonly string[] }> {
    fixture ??= createCliFixture({ git: false });
    const { result, sources, urls } = await loadedModules(fixture, args, { cwd: fixture.home });
    return { exitCode: result.exitCode ?? -1, sources, urls };
  }

  it('starts lazily: --help, --version and a command’s help load no AI SDK, no core, no coder', async () => {
    for (const args of [['--help'], ['--version'], ['run', '--help'], ['task', 'approve', '--help']]) {
      const { exitCode, sources } = await traceImports(args);
      expect(exitCode, args.join(' ')).toBe(0);
      // The trace sees into the chunks: the program and commander are there, so core would be seen too.
      expect(sources.some((source) => source.endsWith('/apps/cli/src/program.ts'))).toBe(true);
      expect(sources.some((source) => source.includes('/node_modules/commander/'))).toBe(true);
      expect(
        sources.filter((source) => HEAVY.test(source)),
        args.join(' '),
      ).toEqual([]);
    }
  });

  it('loads core only when a command needs it (the trace would catch it)', async () => {
    // `task list` needs core's lean jobs entry (outside a repository it fails, after loading it), never
    // the pipeline or a coder.
    const list = await traceImports(['task', 'list']);
    expect(list.sources.some((source) => source.includes('/packages/core/src/jobs/'))).toBe(true);
    expect(
      list.sources.filter((source) => new RegExp(`/packages/(core/src/pipeline|${CODER})/`).test(source)),
    ).toEqual([]);
    // `coders` asks each coder whether it can run, so it loads them (each from its own package, by name),
    // and the registry of core.
    const coders = await traceImports(['coders']);
    expect(coders.urls.some((url) => url.endsWith('/packages/coder-mock/dist/index.js'))).toBe(true);
    expect(coders.sources.some((source) => source.includes('/packages/core/src/coders/'))).toBe(true);
  });

  it('runs a mock job on one copy of each library: nothing but the coder is loaded from outside the bundle', async () => {
    // Each file the loader resolves outside the CLI's chunks costs a lookup, a read and a compile, and a
    // second copy of zod or core costs all of them again; the bundle (tsup.config.ts) exists to avoid that.
    fixture = createCliFixture();
    const { result, urls, sources } = await loadedModules(fixture, ['run', 'Add a NOTES.md', '--mock']);
    expect(result.exitCode, result.all).toBe(0);
    const dist = pathToFileURL(join(import.meta.dirname, '..', 'dist')).href;
    const outside = [...new Set(urls)].filter(
      (url) => url.startsWith('file:') && !url.startsWith(`${dist}/`),
    );
    // The mock coder's own package, imported by name as any coder is (its `/registration` is bundled).
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.filter((url) => !url.includes('/packages/coder-mock/dist/'))).toEqual([]);
    // The bundle holds what the run used, once: the pipeline, the judge's AI SDK call, zod.
    for (const part of ['/packages/core/src/pipeline/', '/node_modules/ai/', '/node_modules/zod/']) {
      expect(
        sources.some((source) => source.includes(part)),
        part,
      ).toBe(true);
    }
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
