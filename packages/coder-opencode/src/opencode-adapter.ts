import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  CODER_ENVIRONMENT_ALLOW_LIST,
  CoderNotInstalledError,
  CoderUnavailableError,
  type CoderV1Availability,
  type CoderV1AvailabilityOptions,
  type CoderV1Credentials,
  type CoderV1Request,
  coderStateDirectory,
  findExecutable,
  findHidingMount,
  InPlaceCoderAdapter,
  type InPlaceCoderAdapterSettings,
  type InPlaceExecution,
  type InPlaceExecutionContext,
  isVersionInRange,
  probeExecutableVersion,
  runGit,
  stripModelPrefix,
} from '@snodo/coder-sdk';
import { checkOpencodeAvailability, DOCKER_INSTALL_HINT } from './opencode-availability.js';
import { OpencodeClient } from './opencode-client.js';
import { type OpencodeRunConfig, readOpencodeConfig } from './opencode-config.js';
import { formatOpencodeModel, type OpencodeModel, parseOpencodeModel } from './opencode-model.js';
import type { OpencodeRuntime } from './opencode-runtime.js';
import { buildServerEnvironment } from './opencode-server-environment.js';
import { OpencodeServerVersionError } from './opencode-server-version-error.js';
import { OpencodeSessionRun } from './opencode-session-run.js';
import { OpencodeTranscript, type TranscriptSecret } from './opencode-transcript.js';
import { opencodeRegistration } from './registration.js';
import { startDockerRuntime } from './runtime-docker.js';
import { startHostRuntime } from './runtime-host.js';
import { urlServerCredentials, useUrlRuntime } from './runtime-url.js';
import { describeStartupFailure } from './startup-failure.js';
import { SUPPORTED_OPENCODE_VERSIONS } from './version.js';
import { waitForServer } from './wait-for-server.js';

const mebibyte = 1024 * 1024;

/** Settings for `createOpencodeCoder`. Every field is optional. */
export interface OpencodeCoderSettings extends InPlaceCoderAdapterSettings {
  /**
   * The defaults of every run: snodo's `coders.opencode` config entry, as the coder registry passes it
   * (`runtime`, `url`, `binary`, `image`, `provider_config`…; see `opencodeConfigSchema`). Each run's
   * `coderConfig` is laid over it. `checkAvailability` reads only this.
   */
  readonly config?: Readonly<Record<string, unknown>>;
  /** SIGTERM → SIGKILL grace when a host server is stopped. Default 5000 ms. */
  readonly killGraceMs?: number;
  /** Bytes of transcript per attempt. Default 10 MiB. */
  readonly transcriptCapBytes?: number;
  /** No progress of the session for this long is a hang, when the request sets no idle limit. Default 10 minutes. */
  readonly defaultIdleTimeoutMs?: number;
  /** Default of `poll_interval_seconds`, in milliseconds. Default 2000. */
  readonly pollIntervalMs?: number;
  /** Default of `startup_timeout_seconds`, in milliseconds. Default 60000. */
  readonly startupTimeoutMs?: number;
  /** Default of `request_timeout_seconds`, in milliseconds. Default 30000. */
  readonly requestTimeoutMs?: number;
}

/** What `prepare` settles before anything is written. */
export interface OpencodePreparation {
  readonly config: OpencodeRunConfig;
  readonly model: OpencodeModel | undefined;
  /** The `opencode` executable (host runtime) or the docker CLI (docker runtime). */
  readonly executablePath: string | undefined;
}

/**
 * The `opencode` coder: OpenCode's server (`opencode serve`, V1 HTTP API) doing one snodo attempt per
 * session in the task worktree. The runtime brings the server: `host` starts one per attempt, `docker` one
 * container per attempt, `url` uses the user's. The flow is `OpencodeSessionRun`; the SDK's
 * `InPlaceCoderAdapter` guards `.snodo/` and git metadata and makes the attempt's one commit.
 *
 * Containment (`supportsSandbox`): the host runtime starts the server through the SDK's supervisor inside
 * `request.sandbox` (network shared, so snodo reaches it on 127.0.0.1), so the agent's tools run there too.
 * The docker runtime is contained by its own container (only the docker CLI, a client, runs on the host),
 * and the url runtime runs nothing on this machine; for both the sandbox has nothing to wrap.
 */
export class OpencodeCoder extends InPlaceCoderAdapter<OpencodePreparation> {
  readonly id = opencodeRegistration.id;
  readonly displayName = opencodeRegistration.displayName;
  readonly modelPrefix = opencodeRegistration.modelPrefix;
  readonly installHint = opencodeRegistration.installHint;
  /** The executable the host runtime looks for (read by `availabilityError` and the conformance kit). */
  readonly binary = 'opencode';
  /** OpenCode 1.x: the V1 server API. */
  readonly supportedVersions = SUPPORTED_OPENCODE_VERSIONS;
  /**
   * None that snodo injects: OpenCode reads provider keys itself. Put them in `coders.opencode.env`
   * (core adds those to the coder's environment; the docker runtime forwards them by name) or in
   * `provider_config`.
   */
  readonly credentials: CoderV1Credentials = { envVars: [] };
  override readonly supportsUsage = true;
  override readonly supportsAbort = true;
  override readonly supportsStreamingEvents = true;
  /** See the class comment: host servers run in the sandbox; docker and url run nothing here to wrap. */
  override readonly supportsSandbox = true;

  declare protected readonly settings: OpencodeCoderSettings;

  constructor(settings: OpencodeCoderSettings = {}) {
    super(settings);
  }

  private readConfig(coderConfig: Readonly<Record<string, unknown>> = {}): OpencodeRunConfig {
    return readOpencodeConfig(this.id, [this.settings.config ?? {}, coderConfig], this.settings);
  }

  override async checkAvailability(options: CoderV1AvailabilityOptions): Promise<CoderV1Availability> {
    let config: OpencodeRunConfig;
    try {
      config = this.readConfig();
    } catch (error) {
      return {
        ready: false,
        installed: true,
        credentials: 'not-needed',
        reason: (error as Error).message,
        fix: `fix coders.${this.id} in snodo's config (snodo config show)`,
      };
    }
    return checkOpencodeAvailability(this, config, options);
  }

  /** Reads the settings and the model and finds the executable the runtime needs; writes nothing. */
  protected override async prepare(request: CoderV1Request): Promise<OpencodePreparation> {
    const config = this.readConfig(request.coderConfig);
    const model = parseOpencodeModel(
      this.id,
      stripModelPrefix(request.model, this.modelPrefix) ?? config.model,
    );
    const who = { coderId: this.id, displayName: this.displayName };
    if (config.runtime === 'url') return { config, model, executablePath: undefined };
    if (config.runtime === 'docker') {
      const dockerPath = findExecutable(config.dockerBinary, request.env.PATH);
      if (dockerPath === undefined) {
        throw new CoderNotInstalledError({
          ...who,
          installHint: DOCKER_INSTALL_HINT,
          binary: config.dockerBinary,
        });
      }
      return { config, model, executablePath: dockerPath };
    }
    const wanted = config.binary ?? this.binary;
    const binaryPath = findExecutable(wanted, request.env.PATH);
    if (binaryPath === undefined) {
      throw new CoderNotInstalledError({
        ...who,
        installHint: this.installHint,
        binary: wanted,
        ...(config.binary === undefined
          ? {}
          : { reason: `the configured binary ${wanted} is not an executable file` }),
      });
    }
    const hiding = request.sandbox === undefined ? undefined : findHidingMount(request.sandbox, binaryPath);
    if (hiding !== undefined) {
      throw new CoderUnavailableError({
        ...who,
        reason: `its executable ${binaryPath} lies under ${hiding}, which the sandbox hides from the coder`,
        fix: `install OpenCode outside that directory, point coders.${this.id}.binary at such a copy, or run with \`execution.sandbox: off\``,
      });
    }
    // The version probe runs on the host: it starts the user's installed CLI, not code the coder wrote.
    const { version } = await probeExecutableVersion(binaryPath, ['--version'], { env: request.env });
    if (version !== undefined && !isVersionInRange(version, SUPPORTED_OPENCODE_VERSIONS)) {
      throw new OpencodeServerVersionError({
        ...who,
        foundVersion: version,
        where: binaryPath,
        installHint: this.installHint,
      });
    }
    return { config, model, executablePath: binaryPath };
  }

  /** Brings up the server, runs the session, stops what it started; see the class comment. */
  protected override async execute(
    request: CoderV1Request,
    context: InPlaceExecutionContext<OpencodePreparation>,
  ): Promise<InPlaceExecution> {
    const startedAt = Date.now();
    const deadline = startedAt + request.timeoutMs;
    const { config, model } = context.preparation;
    const password = config.runtime === 'url' ? undefined : randomBytes(24).toString('base64url');
    const transcript = new OpencodeTranscript({
      path: request.transcriptPath,
      capBytes: this.settings.transcriptCapBytes ?? 10 * mebibyte,
      secrets: secretsOf(request.env, password),
      emit: request.emit,
    });
    transcript.note(
      `=== snodo job ${request.jobId} attempt ${request.attempt} · ${this.id} (${config.runtime} runtime) · ` +
        `${new Date(startedAt).toISOString()} ===`,
    );
    let runtime: OpencodeRuntime | undefined;
    let ending = 'failed';
    try {
      runtime = await this.startRuntime(request, context, password, deadline, transcript);
      const client = new OpencodeClient({
        baseUrl: runtime.url,
        directory: request.workspace,
        username: runtime.username,
        password: runtime.password,
        requestTimeoutMs: config.requestTimeoutMs,
      });
      const version = await waitForServer(client, this, {
        limitMs:
          runtime.kind === 'url' ? 0 : Math.min(config.startupTimeoutMs, Math.max(deadline - Date.now(), 1)),
        signal: request.abortSignal,
        isGone: () => runtime?.exitDescription() !== undefined,
      }).catch((error: unknown) => {
        throw describeStartupFailure(this, runtime as OpencodeRuntime, error, request, deadline);
      });
      transcript.note(
        `[snodo] ${runtime.description}${runtime.description.includes(runtime.url) ? '' : ` at ${runtime.url}`} is OpenCode ${version}` +
          (model === undefined ? '; the server picks the model' : `; model ${formatOpencodeModel(model)}`),
        'progress',
      );
      const result = await new OpencodeSessionRun({
        who: { coderId: this.id, displayName: this.displayName },
        client,
        runtime,
        request,
        model,
        agent: config.agent,
        deadline,
        pollIntervalMs: config.pollIntervalMs,
        idleTimeoutMs: request.idleTimeoutMs ?? this.settings.defaultIdleTimeoutMs ?? 10 * 60_000,
        transcript,
      }).run();
      ending = 'session finished';
      const stderrTail = runtime.stderrTail();
      return {
        usage: result.usage ?? null,
        cliVersion: version,
        ...(runtime.argv === undefined ? {} : { argv: runtime.argv }),
        sessionId: result.sessionId,
        transcriptPath: request.transcriptPath,
        ...(stderrTail === '' ? {} : { stderrTail }),
      };
    } catch (error) {
      ending = `failed: ${transcript.redact(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error))}`;
      throw error;
    } finally {
      await runtime?.stop();
      transcript.finish(`=== ${ending} after ${Date.now() - startedAt} ms ===`);
    }
  }

  private async startRuntime(
    request: CoderV1Request,
    context: InPlaceExecutionContext<OpencodePreparation>,
    password: string | undefined,
    deadline: number,
    transcript: OpencodeTranscript,
  ): Promise<OpencodeRuntime> {
    const { config, model, executablePath } = context.preparation;
    const who = { coderId: this.id, displayName: this.displayName };
    if (config.runtime === 'url' || password === undefined || executablePath === undefined) {
      return useUrlRuntime(config.url ?? '', urlServerCredentials(config, request.env));
    }
    const serverOptions = {
      config,
      model: model === undefined ? undefined : formatOpencodeModel(model),
      instructionsFilePath: context.instructionsFilePath,
      password,
    };
    const timing = { startupTimeoutMs: config.startupTimeoutMs, timeoutMs: request.timeoutMs, deadline };
    if (config.runtime === 'docker') {
      const serverEnv = buildServerEnvironment({ ...serverOptions, stateDirectory: '/tmp/snodo-opencode' });
      for (const name of config.forwardedEnvNames) {
        const value = request.env[name];
        if (value !== undefined) serverEnv[name] = value;
      }
      return startDockerRuntime({
        who,
        ...timing,
        dockerPath: executablePath,
        image: config.image ?? '',
        workspace: request.workspace,
        gitCommonDirectory: await gitDirectoryOutside(request.workspace),
        jobId: request.jobId,
        env: request.env,
        serverEnv,
        password,
        abortSignal: request.abortSignal,
        transcript,
        waitUntilReady: async (url, limitMs) => {
          const client = new OpencodeClient({
            baseUrl: url,
            directory: undefined,
            username: 'opencode',
            password,
            requestTimeoutMs: config.requestTimeoutMs,
          });
          await waitForServer(client, this, { limitMs, signal: request.abortSignal });
        },
      });
    }
    // NOTE: never os.tmpdir(): inside the sandbox /tmp is private. Kept with the job for inspection.
    const stateDirectory = path.join(coderStateDirectory(request), 'opencode-server');
    const tmp = request.sandbox?.environment.TMPDIR;
    return startHostRuntime({
      who,
      ...timing,
      binaryPath: executablePath,
      workspace: request.workspace,
      env: {
        ...request.env,
        ...(request.homeDirectory === undefined ? {} : { HOME: request.homeDirectory }),
        ...(tmp === undefined ? {} : { TMPDIR: tmp }),
        ...buildServerEnvironment({ ...serverOptions, stateDirectory }),
      },
      password,
      stateDirectory,
      ...(request.sandbox === undefined ? {} : { sandbox: request.sandbox }),
      onStart: (pid, tag) => request.emit({ type: 'coder-process', pid, processGroup: pid, tag }),
      killGraceMs: this.settings.killGraceMs ?? 5000,
      abortSignal: request.abortSignal,
      transcript,
    });
  }
}

/** The values never to write down: the server password and every credential core put in the env. */
function secretsOf(env: Readonly<Record<string, string>>, password: string | undefined): TranscriptSecret[] {
  const ordinary = (name: string) =>
    CODER_ENVIRONMENT_ALLOW_LIST.some((pattern) =>
      pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern,
    );
  const secrets = Object.entries(env)
    .filter(([name, value]) => !ordinary(name) && value.length >= 8)
    .map(([name, value]) => ({ name, value }));
  return password === undefined
    ? secrets
    : [{ name: 'OPENCODE_SERVER_PASSWORD', value: password }, ...secrets];
}

/** The git directory a linked worktree points at, when it lies outside the worktree (docker mounts it). */
async function gitDirectoryOutside(workspace: string): Promise<string | undefined> {
  const { stdout } = await runGit(['rev-parse', '--path-format=absolute', '--git-common-dir'], {
    cwd: workspace,
  });
  const directory = stdout.trim();
  const relative = path.relative(workspace, directory);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))
    ? undefined
    : directory;
}

/**
 * Creates the `opencode` coder. The CLI registers it with `load: (settings) => createOpencodeCoder({ config:
 * settings })`, where `settings` is `coders.opencode` from snodo's config.
 */
export function createOpencodeCoder(settings: OpencodeCoderSettings = {}): OpencodeCoder {
  return new OpencodeCoder(settings);
}
