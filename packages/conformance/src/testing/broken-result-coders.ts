/**
 * Test support (not exported, not built): the example coder with one mistake each in what it does with
 * the CLI's work and how it reports the run.
 */
import { rmSync } from 'node:fs';
import {
  type CoderV1Request,
  type CoderV1Result,
  type InPlaceExecution,
  type InPlaceExecutionContext,
  runGit,
  type SubprocessOutput,
  type SubprocessParsedOutput,
  type SubprocessPreparation,
} from '@snodo/coder-sdk';
import { ExampleCoder } from '../example/example-coder.js';

const nothing: CoderV1Result = { status: 'no-changes', changedFiles: [], usage: null, durationMs: 0 };

function hasCode(error: unknown, code: string): boolean {
  return (error as { code?: unknown } | null)?.code === code;
}

/** Reports the change but leaves it uncommitted in the worktree. */
export class NoCommitCoder extends ExampleCoder {
  override async doRun(request: CoderV1Request): Promise<CoderV1Result> {
    const result = await super.doRun(request);
    if (result.commit !== undefined)
      await runGit(['reset', '--mixed', '-q', 'HEAD~1'], { cwd: request.workspace });
    return result;
  }
}

/** Keeps the commits the CLI made and commits only what is left on top of them. */
export class NoSquashCoder extends ExampleCoder {
  private cliHead: string | undefined;

  protected override async execute(
    request: CoderV1Request,
    context: InPlaceExecutionContext<SubprocessPreparation>,
  ): Promise<InPlaceExecution> {
    const execution = await super.execute(request, context);
    const head = (await runGit(['rev-parse', 'HEAD'], { cwd: request.workspace })).stdout.trim();
    this.cliHead = head === context.startCommit ? undefined : head;
    return execution;
  }

  override async doRun(request: CoderV1Request): Promise<CoderV1Result> {
    const result = await super.doRun(request);
    if (this.cliHead === undefined) return result;
    const cwd = request.workspace;
    await runGit(['reset', '--soft', '-q', this.cliHead], { cwd });
    const staged = (await runGit(['diff', '--cached', '--name-only'], { cwd })).stdout.trim();
    if (staged !== '') await runGit(['commit', '-q', '--no-verify', '-m', 'snodo: the rest'], { cwd });
    return { ...result, commit: (await runGit(['rev-parse', 'HEAD'], { cwd })).stdout.trim() };
  }
}

/** Commits even when nothing changed. */
export class EmptyCommitCoder extends ExampleCoder {
  override async doRun(request: CoderV1Request): Promise<CoderV1Result> {
    const result = await super.doRun(request);
    if (result.status === 'changed') return result;
    const cwd = request.workspace;
    await runGit(['commit', '-q', '--no-verify', '--allow-empty', '-m', `snodo(${request.jobId}): nothing`], {
      cwd,
    });
    return {
      ...result,
      status: 'changed',
      commit: (await runGit(['rev-parse', 'HEAD'], { cwd })).stdout.trim(),
    };
  }
}

/** Catches SNODO_MUTATION_BLOCKED and reports a quiet run. */
export class SwallowsMutationCoder extends ExampleCoder {
  override async doRun(request: CoderV1Request): Promise<CoderV1Result> {
    try {
      return await super.doRun(request);
    } catch (error) {
      if (hasCode(error, 'SNODO_MUTATION_BLOCKED')) return nothing;
      throw error;
    }
  }
}

/** Catches GIT_METADATA_TAMPERED and reports a quiet run. */
export class SwallowsTamperCoder extends ExampleCoder {
  override async doRun(request: CoderV1Request): Promise<CoderV1Result> {
    try {
      return await super.doRun(request);
    } catch (error) {
      if (hasCode(error, 'GIT_METADATA_TAMPERED')) return nothing;
      throw error;
    }
  }
}

/** Never tells the process supervisor about the abort signal. */
export class IgnoresAbortCoder extends ExampleCoder {
  protected override execute(
    request: CoderV1Request,
    context: InPlaceExecutionContext<SubprocessPreparation>,
  ): Promise<InPlaceExecution> {
    return super.execute({ ...request, abortSignal: new AbortController().signal }, context);
  }
}

/** Declares supportsSandbox (as every SDK subprocess coder does) and runs the CLI without request.sandbox. */
export class IgnoresSandboxCoder extends ExampleCoder {
  protected override execute(
    request: CoderV1Request,
    context: InPlaceExecutionContext<SubprocessPreparation>,
  ): Promise<InPlaceExecution> {
    const { sandbox: _ignored, ...unsandboxed } = request;
    return super.execute(unsandboxed, context);
  }
}

/** Treats a failed CLI as done and commits what it left. */
export class SuccessOnFailureCoder extends ExampleCoder {
  protected override async execute(
    request: CoderV1Request,
    context: InPlaceExecutionContext<SubprocessPreparation>,
  ): Promise<InPlaceExecution> {
    try {
      return await super.execute(request, context);
    } catch (error) {
      if (!hasCode(error, 'CODER_FAILED')) throw error;
      return { exitCode: (error as { exitCode?: number }).exitCode, transcriptPath: request.transcriptPath };
    }
  }
}

/** Throws its transcript away and reports none. */
export class NoTranscriptCoder extends ExampleCoder {
  override async doRun(request: CoderV1Request): Promise<CoderV1Result> {
    const result = await super.doRun(request);
    rmSync(request.transcriptPath, { force: true });
    return { ...result, transcriptPath: undefined };
  }
}

/** Puts the instructions into README.md, a file the repository tracks. */
export class TrackedInstructionsCoder extends ExampleCoder {
  override readonly instructionsFileName = 'README.md';
}

/** Reports usage with a negative and a fractional token count. */
export class BadUsageCoder extends ExampleCoder {
  override parseOutput(output: SubprocessOutput): SubprocessParsedOutput {
    const parsed = super.parseOutput(output);
    if (parsed.usage === undefined) return parsed;
    return { ...parsed, usage: { ...parsed.usage, inputTokens: -5, outputTokens: 2.5 } };
  }
}
