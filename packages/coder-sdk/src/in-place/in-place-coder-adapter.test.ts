import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CoderFailedError } from '../errors/coder-failed-error.js';
import { SnodoMutationError } from '../errors/snodo-mutation-error.js';
import { CoderAbortedError } from '../errors.js';
import { makeRequest } from '../testing/fake-coder.js';
import {
  createTemporaryRepository,
  isolateGitConfiguration,
  type TemporaryRepository,
} from '../testing/temporary-repository.js';
import type { CoderV1Request } from '../v1/coder-v1-request.js';
import { isCoderAdapterV1 } from '../v1/is-coder-adapter-v1.js';
import {
  InPlaceCoderAdapter,
  type InPlaceCoderAdapterSettings,
  type InPlaceExecution,
} from './in-place-coder-adapter.js';

let repository: TemporaryRepository;

beforeAll(() => isolateGitConfiguration());
beforeEach(() => {
  repository = createTemporaryRepository();
});
afterEach(() => repository.cleanup());

/** An in-place coder that is not a subprocess: it edits the worktree from inside this process. */
class InProcessCoder extends InPlaceCoderAdapter {
  readonly id = 'in-process';
  readonly displayName = 'In Process';
  readonly modelPrefix = undefined;
  readonly installHint = 'nothing to install';
  readonly credentials = { envVars: [] };
  seenInstructions: string | undefined;

  constructor(
    private readonly edit: (workspace: string) => void,
    settings?: InPlaceCoderAdapterSettings,
  ) {
    super(settings);
  }

  protected async execute(
    request: CoderV1Request,
    context: { instructionsFilePath: string },
  ): Promise<InPlaceExecution> {
    this.seenInstructions = existsSync(context.instructionsFilePath)
      ? context.instructionsFilePath
      : undefined;
    this.edit(request.workspace);
    return {
      cliVersion: '0.1.0',
      usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0, costUsd: null, source: 'reported' },
    };
  }
}

describe('InPlaceCoderAdapter', () => {
  it('works for any in-place coder: one commit, usage from execute, a custom instructions file', async () => {
    const coder = new InProcessCoder(
      (workspace) => appendFileSync(path.join(workspace, 'src/app.txt'), 'in process\n'),
      {
        instructionsFileName: 'docs/AGENT-NOTES.md',
      },
    );
    expect(isCoderAdapterV1(coder)).toBe(true);
    expect(await coder.checkAvailability({ env: {} })).toEqual({
      ready: true,
      installed: true,
      credentials: 'not-needed',
    });

    const result = await coder.doRun(makeRequest(repository));

    expect(coder.seenInstructions).toBe(path.join(repository.workspace, 'docs', 'AGENT-NOTES.md'));
    expect(existsSync(path.join(repository.workspace, 'docs', 'AGENT-NOTES.md'))).toBe(false);
    expect(result).toMatchObject({ status: 'changed', changedFiles: ['src/app.txt'], cliVersion: '0.1.0' });
    expect(result.usage).toEqual({
      inputTokens: 10,
      outputTokens: 5,
      cachedInputTokens: 0,
      costUsd: null,
      source: 'reported',
    });
    expect(repository.git(['log', '-1', '--format=%(trailers:key=Snodo-Coder,valueonly)']).trim()).toBe(
      'in-process@0.1.0',
    );
    expect(repository.git(['status', '--porcelain'])).toBe('');
  });

  it('squashes a coder’s own commits: a rename lists both paths, the configured identity signs it', async () => {
    repository.git(['config', 'user.name', 'Repo Person']);
    repository.git(['config', 'user.email', 'repo@example.com']);
    const coder = new InProcessCoder((workspace) => {
      const git = (args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
      git(['mv', 'src/app.txt', 'src/renamed.txt']);
      git(['commit', '-q', '--no-verify', '-m', 'coder rename']);
      writeFileSync(path.join(workspace, 'src/new.txt'), 'new\n');
    });

    const result = await coder.doRun(makeRequest(repository));

    expect(result).toMatchObject({
      status: 'changed',
      changedFiles: ['src/app.txt', 'src/new.txt', 'src/renamed.txt'],
    });
    expect(repository.git(['log', '-1', '--format=%an <%ae>|%cn <%ce>']).trim()).toBe(
      'Repo Person <repo@example.com>|Repo Person <repo@example.com>',
    );
    expect(repository.git(['rev-list', '--count', 'main..HEAD']).trim()).toBe('1');
  });

  it('refuses a .snodo/ change the coder committed itself, and moves the branch back', async () => {
    const before = repository.git(['rev-parse', 'HEAD']).trim();
    const coder = new InProcessCoder((workspace) => {
      writeFileSync(path.join(workspace, '.snodo', 'protocol.yml'), 'owned\n');
      const git = (args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
      git(['commit', '-q', '--no-verify', '-am', 'coder owns the protocol']);
    });

    const error = await coder.doRun(makeRequest(repository)).catch((caught: unknown) => caught);

    expect(SnodoMutationError.isInstance(error)).toBe(true);
    expect(repository.git(['rev-parse', 'HEAD']).trim()).toBe(before);
    expect(repository.read('.snodo/protocol.yml')).toBe('protocol_id: demo\nmodes: []\n');
  });

  it('restores a tracked file that has the instructions file’s name instead of committing over it', async () => {
    writeFileSync(path.join(repository.workspace, 'AGENTS.md'), 'project notes\n');
    repository.git(['add', 'AGENTS.md']);
    repository.git(['-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-q', '-m', 'notes']);
    const coder = new InProcessCoder(() => {}, { instructionsFileName: 'AGENTS.md' });

    const result = await coder.doRun(makeRequest(repository));

    expect(result.status).toBe('no-changes');
    expect(repository.read('AGENTS.md')).toBe('project notes\n');
  });

  it('rethrows the coder’s own error, still refusing a .snodo/ change made before it failed', async () => {
    const failing = new (class extends InProcessCoder {
      protected override async execute(request: CoderV1Request): Promise<InPlaceExecution> {
        writeFileSync(path.join(request.workspace, '.snodo', 'protocol.yml'), 'owned\n');
        throw new CoderFailedError({ coderId: this.id, displayName: this.displayName, exitCode: 1 });
      }
    })(() => {});

    const error = await failing.doRun(makeRequest(repository)).catch((caught: unknown) => caught);

    expect(SnodoMutationError.isInstance(error)).toBe(true);
    expect(CoderFailedError.isInstance((error as Error).cause)).toBe(true);
    expect(repository.read('.snodo/protocol.yml')).toBe('protocol_id: demo\nmodes: []\n');
  });

  it('does nothing for an already aborted request', async () => {
    const controller = new AbortController();
    controller.abort();
    let ran = false;
    const coder = new InProcessCoder(() => {
      ran = true;
    });

    const error = await coder
      .doRun(makeRequest(repository, { abortSignal: controller.signal }))
      .catch((caught: unknown) => caught);

    expect(CoderAbortedError.isInstance(error)).toBe(true);
    expect(ran).toBe(false);
    expect(existsSync(path.join(repository.workspace, '.snodo-instructions.md'))).toBe(false);
  });

  it('refuses an instructions file name inside .git or .snodo', async () => {
    const coder = new InProcessCoder(() => {}, { instructionsFileName: '.snodo/instructions.md' });
    await expect(coder.doRun(makeRequest(repository))).rejects.toThrow('is inside .git or .snodo');
  });
});
