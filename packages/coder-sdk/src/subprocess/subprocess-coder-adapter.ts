import type { SnodoError } from '@snodo/foundation';
import type { z } from 'zod';
import { credentialFix, credentialValues, evaluateCredentials } from '../credentials/evaluate-credentials.js';
import { CoderCliVersionUnsupportedError } from '../errors/coder-cli-version-unsupported-error.js';
import { CoderCredentialsMissingError } from '../errors/coder-credentials-missing-error.js';
import { CoderNotInstalledError } from '../errors/coder-not-installed-error.js';
import { parseCoderConfig, readBaseCoderConfig } from '../in-place/coder-settings.js';
import {
  InPlaceCoderAdapter,
  type InPlaceCoderAdapterSettings,
  type InPlaceExecution,
  type InPlaceExecutionContext,
} from '../in-place/in-place-coder-adapter.js';
import { findExecutable } from '../process/find-executable.js';
import { DEFAULT_FINAL_EVENT_GRACE_MS, DEFAULT_KILL_GRACE_MS } from '../process/grace-defaults.js';
import { probeExecutableVersion } from '../process/probe-executable-version.js';
import { runSupervisedProcess } from '../process/run-supervised-process.js';
import { stripModelPrefix } from '../process/strip-model-prefix.js';
import type { SupervisedProcessOutcome } from '../process/supervised-process.js';
import type { CoderV1Availability, CoderV1AvailabilityOptions } from '../v1/coder-v1-availability.js';
import type { CoderV1Request } from '../v1/coder-v1-request.js';
import {
  describeVersionRange,
  findVersionInText,
  isVersionInRange,
  type SupportedVersionRange,
} from '../version/version-range.js';
import { OutputRecorder } from './output-recorder.js';
import { type ProviderRetries, ProviderRetryWatch } from './provider-retries.js';
import { removeNoiseLines } from './remove-noise-lines.js';
import { assertVisibleInSandbox, privateDirectories } from './sandbox-visibility.js';
import { describeOutcome, isFailedExit, outcomeError } from './subprocess-outcome.js';
import type {
  SubprocessOutput,
  SubprocessParsedOutput,
  SubprocessPreparation,
  SubprocessRun,
  SubprocessRunPreparation,
} from './subprocess-run.js';
import { withProbeEnvironment } from './with-probe-environment.js';

const mebibyte = 1024 * 1024;

/** Settings an adapter's factory passes to `SubprocessCoderAdapter`, on top of the in-place ones. */
export interface SubprocessCoderAdapterSettings extends InPlaceCoderAdapterSettings {
  /** Time between SIGTERM and SIGKILL when the process group is stopped. Default `DEFAULT_KILL_GRACE_MS`. */
  readonly killGraceMs?: number;
  /** Bytes of output recorded in the transcript per attempt. Default 10 MiB. */
  readonly transcriptCapBytes?: number;
  /** Idle limit when the request sets none. Default 600000 ms (10 minutes). */
  readonly defaultIdleTimeoutMs?: number;
  /** Limit for the `--version` probe. Default 10000 ms. */
  readonly versionProbeTimeoutMs?: number;
  /**
   * How long the CLI may keep running after its final event (see `isFinalEvent`) before its group is
   * stopped and the result kept. Default `DEFAULT_FINAL_EVENT_GRACE_MS` (3000 ms).
   */
  readonly finalEventGraceMs?: number;
}

/**
 * The base for coders that are a command-line program (Claude Code, Codex, Gemini CLI, OpenCode's `run`).
 * It is declarative: an author fills fields and hooks and never overrides `execute` or `prepare`.
 *
 * Required: `binary`, `modelPrefix`, `installHint` (with the contract's `id`, `displayName`,
 * `credentials`; a coder package reads them from its registration) and `buildArgv`. Optional fields:
 * `versionArgs`, `supportedVersions`, `instructionsFileName`, `configSchema`, `droppedVariables`,
 * `quietUntilDone`, `stderrNoise`, `providerRetries`. Optional hooks, in the order they run: `probeEnvironment` (the version
 * probe), `prepareRun` (per attempt: a private home, a settings file; `cleanup` always runs), `buildArgv`,
 * `buildEnv`, `isFinalEvent` and `onOutput` (while it runs), `classifyTimeout` (why a stopped CLI ran so
 * long), `classifyFailure` (the CLI's own error report turned into a precise error), `parseOutput` (usage,
 * session id). Every hook after `prepareRun` gets the
 * attempt as a `SubprocessRun`: the request as the CLI sees it, the parsed config, the stripped model and
 * `prepareRun`'s state.
 *
 * The base finds the binary, checks config, version and key before touching the worktree, spawns the CLI
 * under supervision inside `request.sandbox` when core gives one (see `runSupervisedProcess`), writes the
 * redacted transcript, and lets `InPlaceCoderAdapter` guard and commit the result. A CLI that keeps state
 * puts it under `coderStateDirectory(request)`, never in `os.tmpdir()`.
 *
 * `Config` is what `configSchema` parses `coderConfig` into; `State` is what `prepareRun` hands the others.
 */
export abstract class SubprocessCoderAdapter<
  Config = Readonly<Record<string, unknown>>,
  State = undefined,
> extends InPlaceCoderAdapter<SubprocessPreparation<Config>> {
  /** The executable's name, looked up on the coder's PATH (`claude`). */
  abstract readonly binary: string;
  /** Arguments that make the CLI print its version. */
  readonly versionArgs: readonly string[] = ['--version'];
  /** The verified versions; a CLI outside them is `CODER_CLI_VERSION_UNSUPPORTED`. Unset: no check. */
  readonly supportedVersions: SupportedVersionRange | undefined = undefined;
  /**
   * The adapter's own keys of `coderConfig` (config `coders.<id>`, the protocol mode's `coder_config`),
   * as a zod schema that also turns them into `Config` (use `.loose()`: the SDK's `binary` and
   * `keep_attribution` share the object). Parsed once per attempt before anything is written, with
   * `parseCoderConfig` (a wrong value is `CODER_CONFIG_INVALID` naming `coders.<id>.<key>`), and handed to
   * the hooks as `run.config`. Unset: `run.config` is `coderConfig` as given.
   */
  readonly configSchema: z.ZodType<Config> | undefined = undefined;
  /**
   * Variables removed from `request.env` before the CLI sees it, for names that would point the CLI
   * elsewhere if a user's `coders.<id>.env` let them through (`/_BASE_URL$/`). The `credentials` variables
   * are always kept. Unset: nothing removed.
   */
  readonly droppedVariables: RegExp | undefined = undefined;
  /**
   * `true` for a CLI that prints nothing until its result (agy's JSON mode): silence is normal, so the
   * idle limit is raised to the wall-clock limit.
   */
  readonly quietUntilDone: boolean = false;
  /**
   * Lines of the CLI's stderr that never explain a failure (a warning it prints on every start), removed
   * from the stderr tail that errors, `classifyFailure` and the result carry, so the failure's own lines
   * are what a user reads. The transcript keeps every line. Each pattern is tested against one line
   * without its line break; write them without the `g` flag. Default: none.
   */
  readonly stderrNoise: readonly RegExp[] = [];
  /**
   * How the CLI announces retries of a failing provider (see `ProviderRetries`): each becomes progress
   * ("Claude Code: API error 500, retry 3/10") and `run.retries`, and a CLI stopped at a limit while
   * retrying fails with `CODER_PROVIDER_FAILED`. Unset: the CLI's retries are not read.
   */
  readonly providerRetries: ProviderRetries<SubprocessRun<Config, State>> | undefined = undefined;
  /** Subprocess coders stop promptly on abort: the base kills the process group. */
  override readonly supportsAbort: boolean = true;
  /** The base runs the CLI inside `request.sandbox` (the version probe stays on the host). */
  override readonly supportsSandbox: boolean = true;

  declare protected readonly settings: SubprocessCoderAdapterSettings;

  constructor(settings: SubprocessCoderAdapterSettings = {}) {
    super(settings);
  }

  /**
   * The full argv, starting with the program name (replaced by the resolved path when spawned). The prompt
   * goes in as one element; add a model flag only when `model` is defined (it is already stripped of
   * `modelPrefix`). Never join arguments into a string: there is no shell. `run` is the attempt: the base
   * always passes it (it is optional for `buildArgv`, `buildEnv` and `parseOutput` so a test, or an adapter
   * written before the hooks, can call them with the old arguments).
   */
  abstract buildArgv(
    prompt: string,
    workspace: string,
    model: string | undefined,
    run?: SubprocessRun<Config, State>,
  ): string[];

  /**
   * Optional: extra variables for the version probe, built around `directory`, a fresh temporary directory
   * removed after the probe (`{ HOME: directory }` for a CLI that writes into its home even for
   * `--version`). Used by `checkAvailability` and before each attempt.
   */
  probeEnvironment?(directory: string): Record<string, string>;

  /**
   * Optional: per-attempt preparation, after the instructions file is placed and before the CLI starts:
   * create a private home, write a settings file, set up an accumulator. `request` is the request as the
   * CLI will get it (without `droppedVariables`); `config` is the parsed `coderConfig`. The returned `env`
   * is added over `buildEnv`'s, `state` reaches every later hook as `run.state`, and `cleanup` runs when the
   * attempt ends, however it ends.
   */
  prepareRun?(
    request: CoderV1Request,
    config: Config,
  ): SubprocessRunPreparation<State> | Promise<SubprocessRunPreparation<State>>;

  /**
   * Extra variables for this coder, merged over `request.env` (hermetic config directories, disabling
   * auto-update or telemetry). Never copy secrets from `process.env` here.
   */
  buildEnv(_request: CoderV1Request, _run?: SubprocessRun<Config, State>): Record<string, string> {
    return {};
  }

  /**
   * Optional: `true` for the stdout line that is the CLI's last event (its JSON result). A CLI that does not
   * exit within `finalEventGraceMs` after printing it is stopped and the run counts as ended normally, so
   * a CLI that lingers after finishing costs seconds, not the idle limit.
   */
  isFinalEvent?(line: string): boolean;

  /**
   * Optional: sees every chunk of output (redacted) as it arrives, after it was emitted as `coder-output`.
   * For CLIs whose totals are spread over a long stream (sum them in `run.state`, report progress with
   * `run.request.emit`), since `parseOutput` sees only the output's end.
   */
  onOutput?(stream: 'stdout' | 'stderr', text: string, run: SubprocessRun<Config, State>): void;

  /**
   * Optional: why a CLI that snodo stopped at its wall-clock or idle `limit` ran so long, as a precise
   * error that replaces `CODER_TIMEOUT` (a CLI that spent the time retrying a failing provider is
   * `CODER_PROVIDER_FAILED`, whose fix is the provider, not a bigger limit). `stoppedAfterMs` is the limit
   * that fired. `undefined`: the timeout stands.
   */
  classifyTimeout?(
    output: SubprocessOutput,
    run: SubprocessRun<Config, State>,
    stop: { readonly limit: 'wall-clock' | 'idle'; readonly stoppedAfterMs: number },
  ): SnodoError | undefined;

  /**
   * Optional: the CLI's own report of what went wrong (a JSON error event, a `result` with `is_error`)
   * turned into a precise error, which is thrown. Called after a failed exit (before the base's generic
   * `CODER_FAILED` for the exit code) and after a successful one (a CLI may exit 0 after reporting an
   * error). `undefined`: nothing to add.
   */
  classifyFailure?(output: SubprocessOutput, run: SubprocessRun<Config, State>): SnodoError | undefined;

  /**
   * Reads usage and a session id from the CLI's output after a successful run (one `classifyFailure`
   * accepted). The default reads nothing.
   */
  parseOutput(_output: SubprocessOutput, _run?: SubprocessRun<Config, State>): SubprocessParsedOutput {
    return {};
  }

  /** Finds the version in the `versionArgs` output. The default takes the first `1.2.3`-like text. */
  parseVersion(text: string): string | undefined {
    return findVersionInText(text);
  }

  /**
   * Installed? Which version, and is it verified? Key present in `options.env` (or optional)? Runs only
   * the version probe, writes nothing.
   */
  override async checkAvailability(options: CoderV1AvailabilityOptions): Promise<CoderV1Availability> {
    const credentials = evaluateCredentials(this.credentials, options.env);
    const wanted = options.binaryPath ?? this.binary;
    const binaryPath = findExecutable(wanted, options.env.PATH);
    if (binaryPath === undefined) {
      return {
        ready: false,
        installed: false,
        credentials,
        reason:
          options.binaryPath === undefined
            ? `${this.displayName} is not installed: no \`${this.binary}\` executable on PATH`
            : `${this.displayName} is not installed at the configured path ${options.binaryPath}`,
        fix: this.installHint,
      };
    }
    const version = await this.probeVersion(binaryPath, options.env);
    const range = this.supportedVersions;
    const versionSupported =
      range === undefined || version === undefined ? undefined : isVersionInRange(version, range);
    const found = { installed: true, binaryPath, version, versionSupported, credentials };
    if (versionSupported === false && range !== undefined) {
      return {
        ...found,
        ready: false,
        reason: `${this.displayName} ${version} is outside the verified versions (${describeVersionRange(range)})`,
        fix: `${this.installHint} (a version ${describeVersionRange(range)})`,
      };
    }
    if (credentials === 'missing') {
      return {
        ...found,
        ready: false,
        reason: `${this.displayName} needs ${this.credentials.envVars.join(' or ')} and none is set`,
        fix: credentialFix(this.credentials),
      };
    }
    return { ...found, ready: true };
  }

  /** Checks the config, finds the binary, probes its version, checks the key; throws before any write. */
  protected override async prepare(request: CoderV1Request): Promise<SubprocessPreparation<Config>> {
    const configured = readBaseCoderConfig(this.id, request.coderConfig).binary;
    const config =
      this.configSchema === undefined
        ? (request.coderConfig as Config)
        : parseCoderConfig(this.id, this.configSchema, request.coderConfig);
    const binaryPath = findExecutable(configured ?? this.binary, request.env.PATH);
    const who = { coderId: this.id, displayName: this.displayName };
    if (binaryPath === undefined) {
      throw new CoderNotInstalledError({
        ...who,
        installHint: this.installHint,
        binary: configured ?? this.binary,
        reason:
          configured === undefined
            ? undefined
            : `the configured binary ${configured} is not an executable file`,
      });
    }
    const version = await this.probeVersion(binaryPath, request.env);
    const range = this.supportedVersions;
    if (range !== undefined && version !== undefined && !isVersionInRange(version, range)) {
      throw new CoderCliVersionUnsupportedError({
        ...who,
        foundVersion: version,
        supportedVersions: range,
        installHint: this.installHint,
      });
    }
    if (evaluateCredentials(this.credentials, request.env) === 'missing') {
      throw new CoderCredentialsMissingError({
        ...who,
        envVars: this.credentials.envVars,
        configKey: this.credentials.configKey,
      });
    }
    assertVisibleInSandbox(this, request, binaryPath);
    return { binaryPath, version, config };
  }

  /**
   * Runs the CLI in the worktree under supervision and turns how it ended into a result or typed error:
   * `prepareRun`, `buildArgv`, the process, then `classifyFailure` and `parseOutput`; `cleanup` last.
   */
  protected override async execute(
    original: CoderV1Request,
    context: InPlaceExecutionContext<SubprocessPreparation<Config>>,
  ): Promise<InPlaceExecution> {
    const { config, version } = context.preparation;
    const request = this.withoutDroppedVariables(original);
    const prepared = (await this.prepareRun?.(request, config)) ?? {};
    try {
      const watch = new ProviderRetryWatch(this.providerRetries, this.displayName);
      const run: SubprocessRun<Config, State> = {
        request,
        config,
        model: stripModelPrefix(request.model, this.modelPrefix),
        state: prepared.state as State,
        version,
        retries: watch.log,
      };
      return await this.runCli(run, watch, context.preparation.binaryPath, prepared.env ?? {});
    } finally {
      await prepared.cleanup?.();
    }
  }

  /** One supervised run of the CLI for `run`, recorded in the transcript. */
  private async runCli(
    run: SubprocessRun<Config, State>,
    watch: ProviderRetryWatch<SubprocessRun<Config, State>>,
    binaryPath: string,
    preparedEnv: Readonly<Record<string, string>>,
  ): Promise<InPlaceExecution> {
    const { request, version } = run;
    const argv = this.buildArgv(request.prompt, request.workspace, run.model, run);
    if (!Array.isArray(argv) || argv.length === 0 || argv.some((argument) => typeof argument !== 'string')) {
      throw new TypeError(`${this.displayName}: buildArgv must return a non-empty array of strings.`);
    }
    const recorder = new OutputRecorder({
      transcriptPath: request.transcriptPath,
      capBytes: this.settings.transcriptCapBytes ?? 10 * mebibyte,
      secrets: credentialValues(this.credentials, request.env),
      emit: (event) => {
        request.emit(event);
        if (event.type !== 'coder-output') return;
        watch.push(event.stream, event.text, run, request.emit);
        this.onOutput?.(event.stream, event.text, run);
      },
      stdoutTailCharacters: mebibyte,
      stderrTailCharacters: 64 * 1024,
    });
    const redactedArgv = argv.map((argument) => recorder.redact(argument));
    const startedAt = Date.now();
    let outcome: SupervisedProcessOutcome | undefined;
    try {
      recorder.writeLine(
        `=== snodo job ${request.jobId} attempt ${request.attempt} · ${this.id}@${version ?? 'unknown'} · ` +
          `${new Date(startedAt).toISOString()} ===`,
      );
      recorder.writeLine(`$ ${JSON.stringify(redactedArgv)}`);
      outcome = await runSupervisedProcess({
        file: binaryPath,
        args: argv.slice(1),
        cwd: request.workspace,
        env: {
          ...request.env,
          ...privateDirectories(request),
          ...this.buildEnv(request, run),
          ...preparedEnv,
        },
        ...(request.sandbox === undefined ? {} : { sandbox: request.sandbox }),
        timeoutMs: request.timeoutMs,
        idleTimeoutMs: this.idleTimeoutMs(request),
        killGraceMs: this.settings.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
        abortSignal: request.abortSignal,
        onOutput: (stream, chunk) => recorder.push(stream, chunk),
        onStart: (pid, tag) => request.emit({ type: 'coder-process', pid, processGroup: pid, tag }),
        ...(this.isFinalEvent ? { isFinalLine: (line: string) => this.isFinalEvent?.(line) === true } : {}),
        finalEventGraceMs: this.settings.finalEventGraceMs ?? DEFAULT_FINAL_EVENT_GRACE_MS,
      });
    } finally {
      recorder.finish(`=== ${describeOutcome(outcome)} after ${Date.now() - startedAt} ms ===`);
    }
    const stderrTail = (limit?: number): string => {
      const text = removeNoiseLines(recorder.stderrTail(), this.stderrNoise);
      return limit === undefined || text.length <= limit ? text : text.slice(text.length - limit);
    };
    const output = (exitCode: number): SubprocessOutput => ({
      stdout: recorder.stdoutTail,
      stderr: stderrTail(),
      exitCode,
    });
    // The CLI's own report of what went wrong (a JSON error event on stdout) explains a failure better
    // than its exit code, so `classifyFailure` sees the output before the base's generic error.
    const reported = isFailedExit(outcome)
      ? this.classifyFailure?.(output(outcome.exitCode ?? -1), run)
      : undefined;
    if (reported !== undefined) throw reported;
    const limit = outcome.stoppedBy;
    if (limit === 'wall-clock' || limit === 'idle') {
      const stoppedAfterMs = limit === 'wall-clock' ? request.timeoutMs : this.idleTimeoutMs(request);
      const explained =
        this.classifyTimeout?.(output(-1), run, { limit, stoppedAfterMs }) ??
        watch.timeoutCause(run, { coderId: this.id, stoppedAfterMs, stderrTail: stderrTail(4096) });
      if (explained !== undefined) throw explained;
    }
    const failure = outcomeError(this, request, outcome, {
      idleTimeoutMs: this.idleTimeoutMs(request),
      stderrTail: stderrTail(4096),
    });
    if (failure !== undefined) throw failure;
    const succeeded = output(0);
    const refused = this.classifyFailure?.(succeeded, run);
    if (refused !== undefined) throw refused;
    const parsed = this.parseOutput(succeeded, run);
    return {
      usage: parsed.usage ?? null,
      sessionId: parsed.sessionId,
      cliVersion: version,
      argv: redactedArgv,
      exitCode: 0,
      stderrTail: stderrTail(4096),
      transcriptPath: request.transcriptPath,
    };
  }

  /** The request with `droppedVariables` removed from its environment (credential variables kept). */
  private withoutDroppedVariables(request: CoderV1Request): CoderV1Request {
    const dropped = this.droppedVariables;
    if (dropped === undefined) return request;
    const keep = this.credentials.envVars;
    const env = Object.fromEntries(
      Object.entries(request.env).filter(([name]) => keep.includes(name) || !dropped.test(name)),
    );
    return { ...request, env };
  }

  private idleTimeoutMs(request: CoderV1Request): number {
    // NOTE: a quiet CLI prints nothing until its result, so only the wall-clock limit can apply.
    if (this.quietUntilDone) return Math.max(request.timeoutMs, request.idleTimeoutMs ?? 0);
    return request.idleTimeoutMs ?? this.settings.defaultIdleTimeoutMs ?? 600_000;
  }

  /** Runs `<binary> <versionArgs>` on the host with a short limit; `undefined` when it fails or prints none. */
  private async probeVersion(
    binaryPath: string,
    env: Readonly<Record<string, string>>,
  ): Promise<string | undefined> {
    const probeEnvironment = this.probeEnvironment?.bind(this);
    const probe = await withProbeEnvironment(this.id, env, probeEnvironment, (probeEnv) =>
      probeExecutableVersion(binaryPath, this.versionArgs, {
        env: probeEnv,
        timeoutMs: this.settings.versionProbeTimeoutMs ?? 10_000,
        parseVersion: (text) => this.parseVersion(text),
      }),
    );
    return probe.version;
  }
}
