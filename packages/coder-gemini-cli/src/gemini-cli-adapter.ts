import path from 'node:path';
import {
  CoderFailedError,
  type CoderProviderFailedError,
  type CoderV1Credentials,
  type CoderV1Request,
  coderStateDirectory,
  type ProviderEndpoint,
  SubprocessCoderAdapter,
  type SubprocessOutput,
  type SubprocessParsedOutput,
  type SubprocessRun,
  type SubprocessRunPreparation,
  type SupportedVersionRange,
} from '@snodo/coder-sdk';
import { buildGeminiCliArgv } from './gemini-cli-argv.js';
import {
  GEMINI_CLI_DROPPED_VARIABLES,
  geminiCliEnvironment,
  prepareGeminiCliHome,
} from './gemini-cli-environment.js';
import { isGeminiCliFinalLine, summariseGeminiCliOutput } from './gemini-cli-output.js';
import { GEMINI_CLI_STDERR_NOISE, parseGeminiCliRetry } from './gemini-cli-retries.js';
import {
  type GeminiCliCoderConfig,
  type GeminiCliCoderSettings,
  geminiCliConfigSchema,
} from './gemini-cli-settings.js';
import { geminiCliRegistration } from './registration.js';
import { GEMINI_CLI_SUPPORTED_VERSIONS } from './version.js';

/**
 * Gemini CLI (`gemini -p`) as an in-place snodo coder. Per job it makes a private `GEMINI_CLI_HOME` in the
 * job's coder state directory (`.snodo/jobs/<id>/coder/gemini-cli-home`, writable inside snodo's sandbox,
 * kept with the job like its transcript) with snodo's settings (API-key auth, snodo's instructions file as
 * a context file, no auto-update, no telemetry, no container sandbox of its own), runs
 * `gemini --output-format stream-json --approval-mode yolo` in the worktree, and reads usage and the
 * session id from the `result` event.
 */
export class GeminiCliCoder extends SubprocessCoderAdapter<GeminiCliCoderConfig> {
  readonly id = geminiCliRegistration.id;
  readonly displayName = geminiCliRegistration.displayName;
  readonly binary = 'gemini';
  readonly modelPrefix = geminiCliRegistration.modelPrefix;
  readonly installHint = geminiCliRegistration.installHint;
  readonly credentials: CoderV1Credentials = {
    envVars: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    configKey: 'google',
  };
  override readonly supportedVersions: SupportedVersionRange = GEMINI_CLI_SUPPORTED_VERSIONS;
  override readonly supportsUsage = true;
  override readonly configSchema = geminiCliConfigSchema;
  override readonly droppedVariables = GEMINI_CLI_DROPPED_VARIABLES;
  override readonly stderrNoise = GEMINI_CLI_STDERR_NOISE;

  declare protected readonly settings: GeminiCliCoderSettings;

  constructor(settings: GeminiCliCoderSettings = {}) {
    // NOTE: `gemini --version` loads the whole CLI bundle (seconds on a busy machine, over the SDK's 10 s
    // default once seen in CI); an unknown version would make a ready CLI look broken.
    super({ versionProbeTimeoutMs: 30_000, ...settings });
  }

  buildArgv(prompt: string, _workspace: string, model: string | undefined): string[] {
    return buildGeminiCliArgv({ binary: this.binary, prompt, model });
  }

  /** The `result` event ends a run: a Gemini CLI that lingers after it is stopped after the grace. */
  override isFinalEvent(line: string): boolean {
    return isGeminiCliFinalLine(line);
  }

  /**
   * A failed exit becomes `CODER_FAILED` with the error Gemini CLI printed on stdout (its stderr holds
   * stack traces); a `result` whose status is not `success` fails the run even when the exit code says
   * otherwise.
   */
  override classifyFailure(
    output: SubprocessOutput,
    run: GeminiCliRun,
  ): CoderFailedError | CoderProviderFailedError | undefined {
    const summary = summariseGeminiCliOutput(output.stdout);
    const who = { coderId: this.id, displayName: this.displayName, stderrTail: output.stderr.slice(-4096) };
    const failed = output.exitCode !== 0 || (summary.status !== undefined && summary.status !== 'success');
    const exhausted = failed
      ? run.retries.toError({
          ...who,
          endpoint: this.endpoint(run),
          ...(summary.errorMessage === undefined ? {} : { detail: summary.errorMessage }),
        })
      : undefined;
    if (exhausted !== undefined) return exhausted;
    if (output.exitCode !== 0) {
      if (summary.errorMessage === undefined || output.exitCode < 0) return undefined;
      return new CoderFailedError({
        ...who,
        exitCode: output.exitCode,
        reason: `exited with code ${output.exitCode}: ${summary.errorMessage}`,
      });
    }
    if (summary.status === undefined || summary.status === 'success') return undefined;
    return new CoderFailedError({
      ...who,
      reason: `reported status "${summary.status}": ${summary.errorMessage ?? 'no message'}`,
    });
  }

  /**
   * Each retry Gemini CLI announces on stderr ("Attempt 2 failed with status 429") is progress and the
   * cause of a run stopped meanwhile: its stream-json stays silent while it retries for minutes.
   */
  override readonly providerRetries = {
    stream: 'stderr' as const,
    parse: (line: string, run: GeminiCliRun) => parseGeminiCliRetry(line, run.config.maxAttempts),
    endpoint: (run: GeminiCliRun) => this.endpoint(run),
  };

  /** Reads usage and the session id from the `result` event. */
  override parseOutput(output: SubprocessOutput): SubprocessParsedOutput {
    const summary = summariseGeminiCliOutput(output.stdout);
    return {
      ...(summary.usage === undefined ? {} : { usage: summary.usage }),
      ...(summary.sessionId === undefined ? {} : { sessionId: summary.sessionId }),
    };
  }

  /**
   * NOTE: even `gemini --version` writes into its home (`projects.json`, and leaves `*.tmp` files behind
   * when it exits that fast), so the probe gets a temporary `GEMINI_CLI_HOME` (the SDK removes it).
   */
  override probeEnvironment(directory: string): Record<string, string> {
    return { GEMINI_CLI_HOME: directory, GEMINI_CLI_NO_RELAUNCH: 'true' };
  }

  /** The private home with snodo's settings, and the variables that make Gemini CLI use it. */
  override async prepareRun(
    request: CoderV1Request,
    config: GeminiCliCoderConfig,
  ): Promise<SubprocessRunPreparation> {
    // NOTE: never os.tmpdir(): inside the sandbox /tmp is private, so a host temporary directory would be
    // invisible to Gemini CLI. Its chats and logs stay with the job for inspection.
    const homeDirectory = path.join(coderStateDirectory(request), 'gemini-cli-home');
    await prepareGeminiCliHome({
      directory: homeDirectory,
      instructionsFileName: this.instructionsFileName,
      maxAttempts: config.maxAttempts,
    });
    return {
      env: geminiCliEnvironment({ homeDirectory, baseUrl: config.baseUrl, env: request.env }),
    };
  }

  /** Where Gemini CLI's model calls went, for a provider failure's fix. */
  private endpoint(run: GeminiCliRun): ProviderEndpoint {
    return run.config.baseUrl === undefined
      ? { where: "Google's Gemini API (https://generativelanguage.googleapis.com)" }
      : { where: run.config.baseUrl, setting: `base_url in coders.${this.id} or the mode's coder_config` };
  }
}

/** One attempt of Gemini CLI as its hooks see it. */
type GeminiCliRun = SubprocessRun<GeminiCliCoderConfig>;

/**
 * Creates the Gemini CLI coder. `settings` are the SDK's subprocess settings: kill grace, transcript cap,
 * idle limit, and `finalEventGraceMs` (how long Gemini CLI may linger after its `result` event).
 */
export function createGeminiCliCoder(settings: GeminiCliCoderSettings = {}): GeminiCliCoder {
  return new GeminiCliCoder(settings);
}
