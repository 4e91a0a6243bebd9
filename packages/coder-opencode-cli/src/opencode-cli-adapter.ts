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
  findExecutable,
  type InPlaceExecution,
  type InPlaceExecutionContext,
  SubprocessCoderAdapter,
  type SubprocessOutput,
  type SubprocessParsedOutput,
  type SubprocessPreparation,
  type SupportedVersionRange,
  stripModelPrefix,
} from '@snodo/coder-sdk';
import { buildOpencodeCliArgv } from './opencode-cli-argv.js';
import {
  opencodeCliEnvironment,
  opencodeCliRunConfig,
  prepareOpencodeCliDirectories,
  withoutInheritedOpencodeVariables,
} from './opencode-cli-environment.js';
import {
  isOpencodeFinalLine,
  OpencodeRunAccumulator,
  summariseOpencodeOutput,
} from './opencode-cli-output.js';
import { type OpencodeCliCoderSettings, readOpencodeCliConfig } from './opencode-cli-settings.js';
import { OPENCODE_CLI_SUPPORTED_VERSIONS } from './version.js';

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
export class OpencodeCliCoder extends SubprocessCoderAdapter {
  readonly id = 'opencode-cli';
  readonly displayName = 'OpenCode CLI';
  readonly binary = 'opencode';
  readonly modelPrefix = 'opencode-cli/';
  readonly installHint = 'npm install -g opencode-ai@1.18.33';
  /**
   * OpenCode has its own login and dozens of providers, so no key is required; the common provider
   * variables are passed through when set (core passes the first one it finds).
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

  declare protected readonly settings: OpencodeCliCoderSettings;
  private readonly runs = new WeakMap<CoderV1Request, Record<string, string>>();

  constructor(settings: OpencodeCliCoderSettings = {}) {
    super(settings);
  }

  buildArgv(prompt: string, _workspace: string, model: string | undefined): string[] {
    return buildOpencodeCliArgv({ binary: this.binary, prompt, model });
  }

  override buildEnv(request: CoderV1Request): Record<string, string> {
    return this.runs.get(request) ?? {};
  }

  /**
   * A `step_finish` that is not a tool call, or an `error`, ends the session (1.18.x prints no `done`
   * event): an OpenCode that lingers after it is stopped after the grace.
   */
  override isFinalEvent(line: string): boolean {
    return isOpencodeFinalLine(line);
  }

  /**
   * Reads usage and the session id from the events (the adapter replaces the usage with the one summed
   * while the run went on). An `error` event makes the run `CODER_FAILED` with OpenCode's message, whatever
   * the exit code; its stderr is usually empty.
   */
  override parseOutput(output: SubprocessOutput): SubprocessParsedOutput {
    const summary = summariseOpencodeOutput(output.stdout);
    if (summary.errorMessage !== undefined) {
      const failed = output.exitCode > 0;
      throw new CoderFailedError({
        coderId: this.id,
        displayName: this.displayName,
        stderrTail: output.stderr.slice(-4096),
        ...(failed ? { exitCode: output.exitCode } : {}),
        reason: failed
          ? `exited with code ${output.exitCode}: ${summary.errorMessage}`
          : `reported an error: ${summary.errorMessage}`,
      });
    }
    return {
      ...(summary.usage === undefined ? {} : { usage: summary.usage }),
      ...(summary.sessionId === undefined ? {} : { sessionId: summary.sessionId }),
    };
  }

  /** Installed, verified version: the base's checks, with the version probe in a throwaway home. */
  override async checkAvailability(options: CoderV1AvailabilityOptions): Promise<CoderV1Availability> {
    return this.withProbeHome(options.env, (env) => super.checkAvailability({ ...options, env }));
  }

  /** Checks `coder_config` before anything is written, then lets the base find and probe the binary. */
  protected override async prepare(request: CoderV1Request): Promise<SubprocessPreparation> {
    readOpencodeCliConfig(this.id, request.coderConfig);
    return this.withProbeHome(request.env, (env) => super.prepare({ ...request, env }));
  }

  /**
   * NOTE: even `opencode --version` creates `~/.config/opencode`, `~/.cache/opencode` and `~/.bun`, so the
   * probe gets a temporary HOME and XDG directories, removed afterwards.
   */
  private async withProbeHome<T>(
    env: Readonly<Record<string, string>>,
    probe: (env: Readonly<Record<string, string>>) => Promise<T>,
  ): Promise<T> {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'snodo-opencode-cli-probe-'));
    try {
      return await probe({
        ...env,
        HOME: directory,
        XDG_CONFIG_HOME: path.join(directory, 'config'),
        XDG_DATA_HOME: path.join(directory, 'data'),
        XDG_CACHE_HOME: path.join(directory, 'cache'),
        XDG_STATE_HOME: path.join(directory, 'state'),
      });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  protected override async execute(
    request: CoderV1Request,
    context: InPlaceExecutionContext<SubprocessPreparation>,
  ): Promise<InPlaceExecution> {
    const config = readOpencodeCliConfig(this.id, request.coderConfig);
    const model = stripModelPrefix(request.model, this.modelPrefix);
    const accumulator = new OpencodeRunAccumulator(modelId(model));
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
    const run: CoderV1Request = {
      ...request,
      env: withoutInheritedOpencodeVariables(request.env, this.credentials.envVars),
      // Sums every step as its event arrives and reports usage so far; the SDK's stdout tail may have
      // lost the early steps of a long run by the end.
      emit: (event) => {
        request.emit(event);
        if (event.type !== 'coder-output' || event.stream !== 'stdout') return;
        for (const step of accumulator.pushText(event.text)) {
          if (step.type === 'step_finish') {
            const usage = accumulator.summary().usage;
            if (usage !== undefined) request.emit({ type: 'usage', usage });
          }
        }
      },
    };
    this.runs.set(run, opencodeCliEnvironment({ privateDirectory, config, runConfig }));
    const execution = await super.execute(run, context);
    const summary = accumulator.summary();
    return {
      ...execution,
      usage: summary.usage ?? execution.usage ?? null,
      sessionId: summary.sessionId ?? execution.sessionId,
    };
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
