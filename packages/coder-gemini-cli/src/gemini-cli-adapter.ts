import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  CoderFailedError,
  type CoderV1Availability,
  type CoderV1AvailabilityOptions,
  type CoderV1Credentials,
  type CoderV1Request,
  coderStateDirectory,
  type InPlaceExecution,
  type InPlaceExecutionContext,
  SubprocessCoderAdapter,
  type SubprocessOutput,
  type SubprocessParsedOutput,
  type SubprocessPreparation,
  type SupportedVersionRange,
} from '@snodo/coder-sdk';
import { buildGeminiCliArgv } from './gemini-cli-argv.js';
import {
  geminiCliEnvironment,
  prepareGeminiCliHome,
  withoutInheritedGeminiVariables,
} from './gemini-cli-environment.js';
import { isGeminiCliFinalLine, summariseGeminiCliOutput } from './gemini-cli-output.js';
import { type GeminiCliCoderSettings, readGeminiCliConfig } from './gemini-cli-settings.js';
import { GEMINI_CLI_SUPPORTED_VERSIONS } from './version.js';

/** What one run adds to the environment; looked up by the request the SDK base passes to `buildEnv`. */
interface GeminiCliRun {
  readonly homeDirectory: string;
  readonly baseUrl: string | undefined;
}

/**
 * Gemini CLI (`gemini -p`) as an in-place snodo coder. Per job it makes a private `GEMINI_CLI_HOME` in the
 * job's coder state directory (`.snodo/jobs/<id>/coder/gemini-cli-home`, writable inside snodo's sandbox,
 * kept with the job like its transcript) with snodo's settings (API-key auth, snodo's instructions file as
 * a context file, no auto-update, no telemetry, no container sandbox of its own), runs
 * `gemini --output-format stream-json --approval-mode yolo` in the worktree, and reads usage and the
 * session id from the `result` event.
 */
export class GeminiCliCoder extends SubprocessCoderAdapter {
  readonly id = 'gemini-cli';
  readonly displayName = 'Gemini CLI';
  readonly binary = 'gemini';
  readonly modelPrefix = 'gemini-cli/';
  readonly installHint = 'npm install -g @google/gemini-cli@0.61.0';
  readonly credentials: CoderV1Credentials = {
    envVars: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    configKey: 'google',
  };
  override readonly supportedVersions: SupportedVersionRange = GEMINI_CLI_SUPPORTED_VERSIONS;
  override readonly supportsUsage = true;

  declare protected readonly settings: GeminiCliCoderSettings;
  private readonly runs = new WeakMap<CoderV1Request, GeminiCliRun>();

  constructor(settings: GeminiCliCoderSettings = {}) {
    super(settings);
  }

  buildArgv(prompt: string, _workspace: string, model: string | undefined): string[] {
    return buildGeminiCliArgv({ binary: this.binary, prompt, model });
  }

  override buildEnv(request: CoderV1Request): Record<string, string> {
    const run = this.runs.get(request);
    if (run === undefined) return {};
    return geminiCliEnvironment({ homeDirectory: run.homeDirectory, baseUrl: run.baseUrl, env: request.env });
  }

  /** The `result` event ends a run: a Gemini CLI that lingers after it is stopped after the grace. */
  override isFinalEvent(line: string): boolean {
    return isGeminiCliFinalLine(line);
  }

  /**
   * Reads usage and the session id from the `result` event. A failed exit becomes `CODER_FAILED` with the
   * error Gemini CLI printed on stdout (its stderr holds stack traces); a `result` whose status is not
   * `success` fails the run even when the exit code says otherwise.
   */
  override parseOutput(output: SubprocessOutput): SubprocessParsedOutput {
    const summary = summariseGeminiCliOutput(output.stdout);
    const who = { coderId: this.id, displayName: this.displayName, stderrTail: output.stderr.slice(-4096) };
    if (output.exitCode !== 0) {
      if (summary.errorMessage === undefined || output.exitCode < 0) return {};
      throw new CoderFailedError({
        ...who,
        exitCode: output.exitCode,
        reason: `exited with code ${output.exitCode}: ${summary.errorMessage}`,
      });
    }
    if (summary.status !== undefined && summary.status !== 'success') {
      throw new CoderFailedError({
        ...who,
        reason: `reported status "${summary.status}": ${summary.errorMessage ?? 'no message'}`,
      });
    }
    return {
      ...(summary.usage === undefined ? {} : { usage: summary.usage }),
      ...(summary.sessionId === undefined ? {} : { sessionId: summary.sessionId }),
    };
  }

  /** Installed, verified version, key: the base's checks, with the version probe in a throwaway home. */
  override async checkAvailability(options: CoderV1AvailabilityOptions): Promise<CoderV1Availability> {
    return this.withProbeHome(options.env, (env) => super.checkAvailability({ ...options, env }));
  }

  /** Checks `coder_config` before anything is written, then lets the base find and probe the binary. */
  protected override async prepare(request: CoderV1Request): Promise<SubprocessPreparation> {
    readGeminiCliConfig(this.id, request.coderConfig);
    return this.withProbeHome(request.env, (env) => super.prepare({ ...request, env }));
  }

  /**
   * NOTE: even `gemini --version` writes into its home (`projects.json`, and leaves `*.tmp` files behind
   * when it exits that fast), so the probe gets a temporary `GEMINI_CLI_HOME`, removed afterwards.
   */
  private async withProbeHome<T>(
    env: Readonly<Record<string, string>>,
    probe: (env: Readonly<Record<string, string>>) => Promise<T>,
  ): Promise<T> {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'snodo-gemini-cli-probe-'));
    try {
      return await probe({ ...env, GEMINI_CLI_HOME: directory, GEMINI_CLI_NO_RELAUNCH: 'true' });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  protected override async execute(
    request: CoderV1Request,
    context: InPlaceExecutionContext<SubprocessPreparation>,
  ): Promise<InPlaceExecution> {
    const config = readGeminiCliConfig(this.id, request.coderConfig);
    // NOTE: never os.tmpdir(): inside the sandbox /tmp is private, so a host temporary directory would be
    // invisible to Gemini CLI. Its chats and logs stay with the job for inspection.
    const homeDirectory = path.join(coderStateDirectory(request), 'gemini-cli-home');
    await prepareGeminiCliHome({ directory: homeDirectory, instructionsFileName: this.instructionsFileName });
    const run = { ...request, env: withoutInheritedGeminiVariables(request.env) };
    this.runs.set(run, { homeDirectory, baseUrl: config.baseUrl });
    return super.execute(run, context);
  }
}

/**
 * Creates the Gemini CLI coder. `settings` are the SDK's subprocess settings: kill grace, transcript cap,
 * idle limit, and `finalEventGraceMs` (how long Gemini CLI may linger after its `result` event).
 */
export function createGeminiCliCoder(settings: GeminiCliCoderSettings = {}): GeminiCliCoder {
  return new GeminiCliCoder(settings);
}
