import path from 'node:path';
import {
  CoderFailedError,
  type CoderV1Credentials,
  type CoderV1Request,
  coderStateDirectory,
  findExecutable,
  SubprocessCoderAdapter,
  type SubprocessOutput,
  type SubprocessParsedOutput,
  type SubprocessRun,
  type SubprocessRunPreparation,
  type SupportedVersionRange,
  stripModelPrefix,
} from '@snodo/coder-sdk';
import { buildOpencodeCliArgv } from './opencode-cli-argv.js';
import {
  OPENCODE_CLI_DROPPED_VARIABLES,
  opencodeCliEnvironment,
  opencodeCliRunConfig,
  prepareOpencodeCliDirectories,
} from './opencode-cli-environment.js';
import {
  isOpencodeFinalLine,
  OpencodeRunAccumulator,
  summariseOpencodeOutput,
} from './opencode-cli-output.js';
import {
  type OpencodeCliCoderConfig,
  type OpencodeCliCoderSettings,
  opencodeCliConfigSchema,
} from './opencode-cli-settings.js';
import { opencodeCliRegistration } from './registration.js';
import { OPENCODE_CLI_SUPPORTED_VERSIONS } from './version.js';

/** One attempt as the hooks see it: the accumulator sums every step as its event arrives. */
type OpencodeCliRun = SubprocessRun<OpencodeCliCoderConfig, OpencodeRunAccumulator>;

/** The model id without its provider (`anthropic/claude-sonnet-4-5` → `claude-sonnet-4-5`), for pricing. */
function modelId(model: string | undefined): string | undefined {
  if (model === undefined) return undefined;
  const slash = model.indexOf('/');
  return slash === -1 ? model : model.slice(slash + 1);
}

/**
 * OpenCode (`opencode run`) as an in-place snodo coder. Per run it builds OpenCode's configuration
 * (permissions, snodo's instructions file, no auto-update or sharing, an endpoint from
 * `coder_config.base_url`), gives it private XDG directories unless `hermetic: false` (in the job's coder
 * state directory, `.snodo/jobs/<id>/coder/opencode-cli/`, writable inside snodo's sandbox and kept with
 * the job), runs `opencode run --format json` in the worktree, and sums tokens and cost over the
 * `step_finish` events as they arrive.
 */
export class OpencodeCliCoder extends SubprocessCoderAdapter<OpencodeCliCoderConfig, OpencodeRunAccumulator> {
  readonly id = opencodeCliRegistration.id;
  readonly displayName = opencodeCliRegistration.displayName;
  readonly binary = 'opencode';
  readonly modelPrefix = opencodeCliRegistration.modelPrefix;
  readonly installHint = opencodeCliRegistration.installHint;
  /**
   * OpenCode has its own login and dozens of providers, so no key is required and no single provider is
   * named (`configKey`): core passes one of these, the one of the provider the model names when it can
   * tell, and a key stored with `snodo config add <provider>` counts as set.
   */
  readonly credentials: CoderV1Credentials = {
    envVars: [
      'ANTHROPIC_API_KEY',
      'OPENAI_API_KEY',
      'OPENROUTER_API_KEY',
      'GOOGLE_GENERATIVE_AI_API_KEY',
      'OPENCODE_API_KEY',
    ],
    optional: true,
  };
  override readonly supportedVersions: SupportedVersionRange = OPENCODE_CLI_SUPPORTED_VERSIONS;
  override readonly supportsUsage = true;
  override readonly supportsStreamingEvents = true;
  override readonly configSchema = opencodeCliConfigSchema;
  override readonly droppedVariables = OPENCODE_CLI_DROPPED_VARIABLES;

  declare protected readonly settings: OpencodeCliCoderSettings;

  constructor(settings: OpencodeCliCoderSettings = {}) {
    super(settings);
  }

  buildArgv(prompt: string, _workspace: string, model: string | undefined): string[] {
    return buildOpencodeCliArgv({ binary: this.binary, prompt, model });
  }

  /**
   * A `step_finish` that is not a tool call, or an `error`, ends the session (1.18.x prints no `done`
   * event): an OpenCode that lingers after it is stopped after the grace.
   */
  override isFinalEvent(line: string): boolean {
    return isOpencodeFinalLine(line);
  }

  /** An `error` event makes the run `CODER_FAILED` with OpenCode's message, whatever the exit code. */
  override classifyFailure(output: SubprocessOutput): CoderFailedError | undefined {
    const summary = summariseOpencodeOutput(output.stdout);
    if (summary.errorMessage === undefined) return undefined;
    const failed = output.exitCode > 0;
    return new CoderFailedError({
      coderId: this.id,
      displayName: this.displayName,
      // Its stderr is usually empty.
      stderrTail: output.stderr.slice(-4096),
      ...(failed ? { exitCode: output.exitCode } : {}),
      reason: failed
        ? `exited with code ${output.exitCode}: ${summary.errorMessage}`
        : `reported an error: ${summary.errorMessage}`,
    });
  }

  /**
   * Usage and session id: the ones summed while the run went on (the stdout tail may have lost the early
   * steps of a long run), else what the end of the output says.
   */
  override parseOutput(output: SubprocessOutput, run?: OpencodeCliRun): SubprocessParsedOutput {
    const summary = summariseOpencodeOutput(output.stdout);
    const streamed = run?.state.summary();
    const usage = streamed?.usage ?? summary.usage;
    const sessionId = streamed?.sessionId ?? summary.sessionId;
    return { ...(usage === undefined ? {} : { usage }), ...(sessionId === undefined ? {} : { sessionId }) };
  }

  /**
   * NOTE: even `opencode --version` creates `~/.config/opencode`, `~/.cache/opencode` and `~/.bun`, so the
   * probe gets a temporary HOME and XDG directories (the SDK removes them).
   */
  override probeEnvironment(directory: string): Record<string, string> {
    return {
      HOME: directory,
      XDG_CONFIG_HOME: path.join(directory, 'config'),
      XDG_DATA_HOME: path.join(directory, 'data'),
      XDG_CACHE_HOME: path.join(directory, 'cache'),
      XDG_STATE_HOME: path.join(directory, 'state'),
    };
  }

  /**
   * OpenCode's configuration for this run, its private directories (hermetic runs), and an accumulator
   * for the steps.
   */
  override async prepareRun(
    request: CoderV1Request,
    config: OpencodeCliCoderConfig,
  ): Promise<SubprocessRunPreparation<OpencodeRunAccumulator>> {
    const model = stripModelPrefix(request.model, this.modelPrefix);
    // NOTE: never os.tmpdir(): inside the sandbox /tmp is private, so a host temporary directory would be
    // invisible to OpenCode. Its SQLite database, logs and caches stay with the job (a fix round reuses
    // the caches).
    const privateDirectory = path.join(coderStateDirectory(request), 'opencode-cli');
    if (config.hermetic) await prepareOpencodeCliDirectories(privateDirectory);
    this.warnWithoutRipgrep(request);
    const runConfig = opencodeCliRunConfig({
      workspace: request.workspace,
      instructionsFileName: this.instructionsFileName,
      model,
      config,
    });
    return {
      env: opencodeCliEnvironment({ privateDirectory, config, runConfig }),
      state: new OpencodeRunAccumulator(modelId(model)),
    };
  }

  /** Sums every step as its event arrives and reports usage so far. */
  override onOutput(stream: 'stdout' | 'stderr', text: string, run: OpencodeCliRun): void {
    if (stream !== 'stdout') return;
    for (const step of run.state.pushText(text)) {
      if (step.type !== 'step_finish') continue;
      const usage = run.state.summary().usage;
      if (usage !== undefined) run.request.emit({ type: 'usage', usage });
    }
  }

  /**
   * NOTE: without `rg` on PATH, OpenCode downloads ripgrep from GitHub the first time its grep or glob
   * tool runs (into its data directory, which is private per run here), and the tool fails offline.
   */
  private warnWithoutRipgrep(request: CoderV1Request): void {
    if (findExecutable('rg', request.env.PATH) !== undefined) return;
    request.emit({
      type: 'coder-progress',
      message:
        'ripgrep (rg) is not on PATH: OpenCode will try to download it for its grep and glob tools. ' +
        'Install ripgrep (apt install ripgrep, brew install ripgrep) to keep runs offline.',
    });
  }
}

/**
 * Creates the OpenCode CLI coder. `settings` are the SDK's subprocess settings: kill grace, transcript cap,
 * idle limit, and `finalEventGraceMs` (how long OpenCode may linger after its session's final event).
 */
export function createOpencodeCliCoder(settings: OpencodeCliCoderSettings = {}): OpencodeCliCoder {
  return new OpencodeCliCoder(settings);
}
