import { realpathSync } from 'node:fs';
import { credentialFix, credentialValues, evaluateCredentials } from '../credentials/evaluate-credentials.js';
import { CoderCliVersionUnsupportedError } from '../errors/coder-cli-version-unsupported-error.js';
import { CoderCredentialsMissingError } from '../errors/coder-credentials-missing-error.js';
import { CoderNotInstalledError } from '../errors/coder-not-installed-error.js';
import { CoderUnavailableError } from '../errors/coder-unavailable-error.js';
import { readBaseCoderConfig } from '../in-place/coder-settings.js';
import {
  InPlaceCoderAdapter,
  type InPlaceCoderAdapterSettings,
  type InPlaceExecution,
  type InPlaceExecutionContext,
} from '../in-place/in-place-coder-adapter.js';
import { findExecutable } from '../process/find-executable.js';
import { probeExecutableVersion } from '../process/probe-executable-version.js';
import { runSupervisedProcess } from '../process/run-supervised-process.js';
import { stripModelPrefix } from '../process/strip-model-prefix.js';
import type { SupervisedProcessOutcome } from '../process/supervised-process.js';
import { findHidingMount } from '../sandbox/wrap-in-sandbox.js';
import type { CoderV1Availability, CoderV1AvailabilityOptions } from '../v1/coder-v1-availability.js';
import type { CoderV1Request } from '../v1/coder-v1-request.js';
import type { CoderV1Usage } from '../v1/coder-v1-usage.js';
import {
  describeVersionRange,
  findVersionInText,
  isVersionInRange,
  type SupportedVersionRange,
} from '../version/version-range.js';
import { OutputRecorder } from './output-recorder.js';
import { describeOutcome, isFailedExit, outcomeError } from './subprocess-outcome.js';

const mebibyte = 1024 * 1024;

/** Settings an adapter's factory passes to `SubprocessCoderAdapter`, on top of the in-place ones. */
export interface SubprocessCoderAdapterSettings extends InPlaceCoderAdapterSettings {
  /** Time between SIGTERM and SIGKILL when the process group is stopped. Default 5000 ms. */
  readonly killGraceMs?: number;
  /** Bytes of output recorded in the transcript per attempt. Default 10 MiB. */
  readonly transcriptCapBytes?: number;
  /** Idle limit when the request sets none. Default 600000 ms (10 minutes). */
  readonly defaultIdleTimeoutMs?: number;
  /** Limit for the `--version` probe. Default 10000 ms. */
  readonly versionProbeTimeoutMs?: number;
  /** How long the CLI may keep running after its final event (see `isFinalEvent`). Default 3000 ms. */
  readonly finalEventGraceMs?: number;
}

/**
 * What `parseOutput` gets: the end of the CLI's output (redacted) and its exit code. It is called after a
 * successful run, and also after a failed exit (`exitCode` ≠ 0) so an adapter can throw a more precise
 * error from the CLI's own report; what it returns for a failed exit is ignored.
 */
export interface SubprocessOutput {
  /** The last part of stdout (up to 1 MiB), where CLIs print their final JSON. */
  readonly stdout: string;
  /** The last part of stderr (up to 64 KiB). */
  readonly stderr: string;
  /** The exit code: 0 after a success; the failure's code (or -1 for a signal) after a failed exit. */
  readonly exitCode: number;
}

/** What an adapter can read from its CLI's output. */
export interface SubprocessParsedOutput {
  /** Token usage and cost, normalised to `CoderV1Usage`. */
  readonly usage?: CoderV1Usage;
  /** The CLI's session id. */
  readonly sessionId?: string;
}

/** What `prepare` found before anything was written; handed to `execute`. */
export interface SubprocessPreparation {
  /** The executable that will run. */
  readonly binaryPath: string;
  /** The version it reported, when it reported one. */
  readonly version: string | undefined;
}

/**
 * The base for coders that are a command-line program (Claude Code, Codex, Gemini CLI, OpenCode's `run`).
 * An author sets `binary`, `modelPrefix`, `installHint` (with the contract's `id`, `displayName`,
 * `credentials`) and implements `buildArgv`; optionally `buildEnv`, `parseOutput`, `versionArgs`,
 * `parseVersion`, `supportedVersions`, `instructionsFileName`.
 *
 * The base finds the binary, checks version and key before touching the worktree, spawns the CLI under
 * supervision inside `request.sandbox` when core gives one (see `runSupervisedProcess`), writes the
 * redacted transcript, and lets `InPlaceCoderAdapter` guard and commit the result. A CLI that keeps state
 * puts it under `coderStateDirectory(request)`, never in `os.tmpdir()`.
 */
export abstract class SubprocessCoderAdapter extends InPlaceCoderAdapter<SubprocessPreparation> {
  /** The executable's name, looked up on the coder's PATH (`claude`). */
  abstract readonly binary: string;
  /** Arguments that make the CLI print its version. */
  readonly versionArgs: readonly string[] = ['--version'];
  /** The verified versions; a CLI outside them is `CODER_CLI_VERSION_UNSUPPORTED`. Unset: no check. */
  readonly supportedVersions: SupportedVersionRange | undefined = undefined;
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
   * `modelPrefix`). Never join arguments into a string: there is no shell.
   */
  abstract buildArgv(prompt: string, workspace: string, model: string | undefined): string[];

  /**
   * Extra variables for this coder, merged over `request.env` (hermetic config directories, disabling
   * auto-update or telemetry). Never copy secrets from `process.env` here.
   */
  buildEnv(_request: CoderV1Request): Record<string, string> {
    return {};
  }

  /** Reads usage and a session id from the CLI's output. The default reads nothing. */
  /**
   * Optional: `true` for the stdout line that is the CLI's last event (its JSON result). A CLI that does not
   * exit within `finalEventGraceMs` after printing it is stopped and the run counts as ended normally, so
   * a CLI that lingers after finishing costs seconds, not the idle limit.
   */
  isFinalEvent?(line: string): boolean;

  parseOutput(_output: SubprocessOutput): SubprocessParsedOutput {
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

  /** Finds the binary, probes its version, checks the key; throws before anything is written. */
  protected override async prepare(request: CoderV1Request): Promise<SubprocessPreparation> {
    const configured = readBaseCoderConfig(this.id, request.coderConfig).binary;
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
    this.assertVisibleInSandbox(request, binaryPath);
    return { binaryPath, version };
  }

  /**
   * Refuses, before anything is written, a CLI the sandbox would hide (installed under the user's HOME,
   * which the sandbox replaces): bubblewrap would only say "No such file or directory".
   */
  private assertVisibleInSandbox(request: CoderV1Request, binaryPath: string): void {
    if (request.sandbox === undefined) return;
    let real = binaryPath;
    try {
      real = realpathSync(binaryPath);
    } catch {
      // Checked as given.
    }
    for (const candidate of new Set([binaryPath, real])) {
      const hiding = findHidingMount(request.sandbox, candidate);
      if (hiding === undefined) continue;
      throw new CoderUnavailableError({
        coderId: this.id,
        displayName: this.displayName,
        reason: `its executable ${candidate} lies under ${hiding}, which the sandbox hides from the coder`,
        fix:
          `install ${this.binary} outside that directory (e.g. a system-wide \`npm install -g\`), point ` +
          `coders.${this.id}.binary at such a copy, or run with \`execution.sandbox: off\``,
      });
    }
  }

  /** Runs the CLI in the worktree under supervision and turns how it ended into a result or typed error. */
  protected override async execute(
    request: CoderV1Request,
    context: InPlaceExecutionContext<SubprocessPreparation>,
  ): Promise<InPlaceExecution> {
    const { binaryPath, version } = context.preparation;
    const argv = this.buildArgv(
      request.prompt,
      request.workspace,
      stripModelPrefix(request.model, this.modelPrefix),
    );
    if (!Array.isArray(argv) || argv.length === 0 || argv.some((argument) => typeof argument !== 'string')) {
      throw new TypeError(`${this.displayName}: buildArgv must return a non-empty array of strings.`);
    }
    const recorder = new OutputRecorder({
      transcriptPath: request.transcriptPath,
      capBytes: this.settings.transcriptCapBytes ?? 10 * mebibyte,
      secrets: credentialValues(this.credentials, request.env),
      emit: request.emit,
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
        env: { ...request.env, ...privateDirectories(request), ...this.buildEnv(request) },
        ...(request.sandbox === undefined ? {} : { sandbox: request.sandbox }),
        timeoutMs: request.timeoutMs,
        idleTimeoutMs: this.idleTimeoutMs(request),
        killGraceMs: this.settings.killGraceMs ?? 5000,
        abortSignal: request.abortSignal,
        onOutput: (stream, chunk) => recorder.push(stream, chunk),
        onStart: (pid, tag) => request.emit({ type: 'coder-process', pid, processGroup: pid, tag }),
        ...(this.isFinalEvent ? { isFinalLine: (line: string) => this.isFinalEvent?.(line) === true } : {}),
        finalEventGraceMs: this.settings.finalEventGraceMs ?? 3000,
      });
    } finally {
      recorder.finish(`=== ${describeOutcome(outcome)} after ${Date.now() - startedAt} ms ===`);
    }
    if (isFailedExit(outcome)) {
      // The CLI's own report of what went wrong (a JSON error event on stdout) explains a failure better
      // than its exit code: `parseOutput` sees the output first and may throw a more precise error.
      this.parseOutput({
        stdout: recorder.stdoutTail,
        stderr: recorder.stderrTail(),
        exitCode: outcome.exitCode ?? -1,
      });
    }
    const failure = outcomeError(this, request, outcome, {
      idleTimeoutMs: this.idleTimeoutMs(request),
      stderrTail: recorder.stderrTail(4096),
    });
    if (failure !== undefined) throw failure;
    const parsed = this.parseOutput({
      stdout: recorder.stdoutTail,
      stderr: recorder.stderrTail(),
      exitCode: 0,
    });
    return {
      usage: parsed.usage ?? null,
      sessionId: parsed.sessionId,
      cliVersion: version,
      argv: redactedArgv,
      exitCode: 0,
      stderrTail: recorder.stderrTail(4096),
      transcriptPath: request.transcriptPath,
    };
  }

  private idleTimeoutMs(request: CoderV1Request): number {
    return request.idleTimeoutMs ?? this.settings.defaultIdleTimeoutMs ?? 600_000;
  }

  /** Runs `<binary> <versionArgs>` on the host with a short limit; `undefined` when it fails or prints none. */
  private async probeVersion(
    binaryPath: string,
    env: Readonly<Record<string, string>>,
  ): Promise<string | undefined> {
    const probe = await probeExecutableVersion(binaryPath, this.versionArgs, {
      env,
      timeoutMs: this.settings.versionProbeTimeoutMs ?? 10_000,
      parseVersion: (text) => this.parseVersion(text),
    });
    return probe.version;
  }
}

/**
 * The job's private HOME (`request.homeDirectory`) and, inside a sandbox, its private TMPDIR, so a CLI
 * never falls back to the user's own. `buildEnv` may still set either for a reason of its own.
 */
function privateDirectories(request: CoderV1Request): Record<string, string> {
  const tmp = request.sandbox?.environment.TMPDIR;
  return {
    ...(request.homeDirectory === undefined ? {} : { HOME: request.homeDirectory }),
    ...(tmp === undefined ? {} : { TMPDIR: tmp }),
  };
}
