/**
 * Test support (not exported, not built): the example coder with one mistake each in how it starts the
 * CLI. Each class names its mistake; the kit's tests show the suite failing exactly that obligation.
 */
import {
  type CoderAdapterV1,
  CoderCredentialsMissingError,
  CoderNotInstalledError,
  type CoderV1Request,
  findExecutable,
  type InPlaceExecution,
  type InPlaceExecutionContext,
  type SubprocessPreparation,
} from '@snodo/coder-sdk';
import { ExampleCoder } from '../example/example-coder.js';

/** Gives `adapter` another id, keeping every member and method. */
export function withId(adapter: CoderAdapterV1, id: string): CoderAdapterV1 {
  return {
    specificationVersion: adapter.specificationVersion,
    id,
    displayName: adapter.displayName,
    kind: adapter.kind,
    modelPrefix: adapter.modelPrefix,
    installHint: adapter.installHint,
    credentials: adapter.credentials,
    supportsUsage: adapter.supportsUsage,
    supportsAbort: adapter.supportsAbort,
    supportsSandbox: adapter.supportsSandbox,
    checkAvailability: (options) => adapter.checkAvailability(options),
    doRun: (request) => adapter.doRun(request),
  };
}

/** Puts the prompt's first line and the rest in two arguments. */
export class SplitPromptCoder extends ExampleCoder {
  override buildArgv(prompt: string, workspace: string, model: string | undefined): string[] {
    const argv = super.buildArgv(prompt, workspace, model).slice(0, -1);
    const newline = prompt.indexOf('\n');
    return [...argv, prompt.slice(0, newline), prompt.slice(newline + 1)];
  }
}

/** Runs the CLI through `sh -c` with the arguments pasted into a double-quoted command line. */
export class ShellSpawningCoder extends ExampleCoder {
  private cliPath = '';

  protected override async prepare(request: CoderV1Request): Promise<SubprocessPreparation> {
    const preparation = await super.prepare(request);
    this.cliPath = preparation.binaryPath;
    return { ...preparation, binaryPath: '/bin/sh' };
  }

  override buildArgv(prompt: string, workspace: string, model: string | undefined): string[] {
    const words = [this.cliPath, ...super.buildArgv(prompt, workspace, model).slice(1)];
    return ['sh', '-c', words.map((word) => `"${word}"`).join(' ')];
  }
}

/** Adds `--model` whether or not there is a model. */
export class AlwaysModelFlagCoder extends ExampleCoder {
  override buildArgv(prompt: string, workspace: string, model: string | undefined): string[] {
    return [this.binary, 'run', '--cwd', workspace, '--model', model ?? '', '--', prompt];
  }
}

/** Reads the model from the request instead of the stripped `model` parameter. */
export class UnstrippedModelCoder extends ExampleCoder {
  private requestedModel: string | undefined;

  protected override execute(
    request: CoderV1Request,
    context: InPlaceExecutionContext<SubprocessPreparation>,
  ): Promise<InPlaceExecution> {
    this.requestedModel = request.model;
    return super.execute(request, context);
  }

  override buildArgv(prompt: string, workspace: string, _model: string | undefined): string[] {
    return super.buildArgv(prompt, workspace, this.requestedModel);
  }
}

/** Ignores a failed lookup and spawns the configured path anyway, after the worktree is prepared. */
export class LateBinaryCheckCoder extends ExampleCoder {
  protected override async prepare(request: CoderV1Request): Promise<SubprocessPreparation> {
    try {
      return await super.prepare(request);
    } catch (error) {
      if (!CoderNotInstalledError.isInstance(error)) throw error;
      const configured = request.coderConfig.binary;
      return {
        binaryPath: typeof configured === 'string' ? configured : this.binary,
        version: undefined,
        config: request.coderConfig,
      };
    }
  }
}

/** Reports the missing key in checkAvailability but runs the CLI without it. */
export class KeyOnlyInAvailabilityCoder extends ExampleCoder {
  protected override async prepare(request: CoderV1Request): Promise<SubprocessPreparation> {
    try {
      return await super.prepare(request);
    } catch (error) {
      if (!CoderCredentialsMissingError.isInstance(error)) throw error;
      const configured = request.coderConfig.binary;
      const wanted = typeof configured === 'string' ? configured : this.binary;
      return {
        binaryPath: findExecutable(wanted, request.env.PATH) ?? wanted,
        version: undefined,
        config: request.coderConfig,
      };
    }
  }
}

/** Hands the CLI snodo's whole environment. */
export class InheritingEnvironmentCoder extends ExampleCoder {
  override buildEnv(_request: CoderV1Request): Record<string, string> {
    const inherited: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) inherited[name] = value;
    return inherited;
  }
}
