import { CoderConfigInvalidError, parseCoderConfig } from '@snodo/coder-sdk';
import { z } from 'zod';

/** Where the OpenCode server comes from. */
export type OpencodeRuntimeKind = 'host' | 'docker' | 'url';

const positiveSeconds = z.number().positive('must be a positive number of seconds');

/**
 * The keys of `coders.opencode` in snodo's config (and of a protocol mode's `coder_config` for this coder)
 * that this coder reads. snake_case, like the rest of the config file. Keys the SDK or core own (`env`,
 * `timeout_seconds`, `keep_attribution`) pass through untouched.
 */
export const opencodeConfigSchema = z
  .object({
    /** `host` (default): snodo starts `opencode serve` itself; `docker`: in a container; `url`: a server you run. */
    runtime: z.enum(['host', 'docker', 'url']).optional(),
    /** The server's address for the `url` runtime (`http://127.0.0.1:4096`). */
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://127.0.0.1:4096' })
      .optional(),
    /** Basic-auth user for the `url` runtime. Default `OPENCODE_SERVER_USERNAME` from the coder's env, else `opencode`. */
    username: z.string().min(1).optional(),
    /**
     * Basic-auth password for the `url` runtime. Prefer `coders.opencode.env.OPENCODE_SERVER_PASSWORD`, which
     * keeps it out of the settings snodo echoes. The host and docker runtimes always make a random one.
     */
    password: z.string().min(1).optional(),
    /** The `opencode` executable for the host runtime (a path, or a name looked up on the coder's PATH). */
    binary: z.string().min(1, 'must be a non-empty path or command name').optional(),
    /** The image for the docker runtime; it must have OpenCode 1.x as `opencode` on its PATH. */
    image: z.string().min(1).optional(),
    /** The docker CLI for the docker runtime. Default `docker`. */
    docker_binary: z.string().min(1).optional(),
    /** The model when the run names none, as OpenCode spells it: `provider/model`. */
    model: z.string().min(1).optional(),
    /** The OpenCode agent that handles the prompt. Default: the server's default agent (`build`). */
    agent: z.string().min(1).optional(),
    /**
     * OpenCode `provider` entries to inject into the server's config (host and docker runtimes), for
     * example an OpenAI-compatible endpoint: `{ mine: { npm: '@ai-sdk/openai-compatible', options: {
     * baseURL: '…' }, models: { m: {} } } }`.
     */
    provider_config: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    /** OpenCode `permission` rules laid over snodo's unattended defaults (host and docker runtimes). */
    permission: z.record(z.string(), z.unknown()).optional(),
    /**
     * `true` (default): the host and docker servers get private config, data, cache and state directories,
     * so your own OpenCode settings and logins stay out of the run. `false`: the host server uses yours.
     */
    hermetic: z.boolean().optional(),
    /** How long the server may take to start and answer its health check. Default 60. */
    startup_timeout_seconds: positiveSeconds.optional(),
    /** How often the session's status is polled besides the event stream. Default 2. */
    poll_interval_seconds: positiveSeconds.optional(),
    /** Limit for one HTTP call to the server. Default 30. */
    request_timeout_seconds: positiveSeconds.optional(),
    /** Variables core adds to the coder's environment; their names are forwarded into a docker container. */
    env: z.record(z.string(), z.string()).optional(),
  })
  .loose();

/** Everything one run needs from the settings, with defaults applied. */
export interface OpencodeRunConfig {
  readonly runtime: OpencodeRuntimeKind;
  readonly url: string | undefined;
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly binary: string | undefined;
  readonly image: string | undefined;
  readonly dockerBinary: string;
  readonly model: string | undefined;
  readonly agent: string | undefined;
  readonly providerConfig: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;
  readonly permission: Readonly<Record<string, unknown>> | undefined;
  readonly hermetic: boolean;
  readonly startupTimeoutMs: number;
  readonly pollIntervalMs: number;
  readonly requestTimeoutMs: number;
  /** Names of the variables from `env`: forwarded into a container by name, never by value. */
  readonly forwardedEnvNames: readonly string[];
}

/** Timing defaults that the factory can change (tests make them short). */
export interface OpencodeTimingDefaults {
  readonly startupTimeoutMs?: number;
  readonly pollIntervalMs?: number;
  readonly requestTimeoutMs?: number;
}

/**
 * Validates the settings: the factory's `config` (snodo's `coders.opencode`) with the run's `coderConfig`
 * laid over it. A wrong type, or a runtime missing what it needs, is `CODER_CONFIG_INVALID` naming the key.
 */
export function readOpencodeConfig(
  coderId: string,
  layers: readonly Readonly<Record<string, unknown>>[],
  timing: OpencodeTimingDefaults = {},
): OpencodeRunConfig {
  const merged = Object.assign({}, ...layers) as Record<string, unknown>;
  const settings = parseCoderConfig(coderId, opencodeConfigSchema, merged);
  const runtime = settings.runtime ?? 'host';
  if (runtime === 'url' && settings.url === undefined) {
    throw new CoderConfigInvalidError({
      coderId,
      setting: 'url',
      problem: 'the url runtime needs the address of a running OpenCode 1.x server (http://127.0.0.1:4096)',
    });
  }
  if (runtime === 'docker' && settings.image === undefined) {
    throw new CoderConfigInvalidError({
      coderId,
      setting: 'image',
      problem:
        'the docker runtime needs an image that has OpenCode 1.x as `opencode` on its PATH ' +
        '(for example an OpenCode 1.x release of ghcr.io/anomalyco/opencode, or your own)',
    });
  }
  const seconds = (value: number | undefined, fallbackMs: number) =>
    value === undefined ? fallbackMs : Math.round(value * 1000);
  return {
    runtime,
    url: settings.url?.replace(/\/+$/, ''),
    username: settings.username,
    password: settings.password,
    binary: settings.binary,
    image: settings.image,
    dockerBinary: settings.docker_binary ?? 'docker',
    model: settings.model,
    agent: settings.agent,
    providerConfig: settings.provider_config,
    permission: settings.permission,
    hermetic: settings.hermetic ?? true,
    startupTimeoutMs: seconds(settings.startup_timeout_seconds, timing.startupTimeoutMs ?? 60_000),
    pollIntervalMs: seconds(settings.poll_interval_seconds, timing.pollIntervalMs ?? 2000),
    requestTimeoutMs: seconds(settings.request_timeout_seconds, timing.requestTimeoutMs ?? 30_000),
    forwardedEnvNames: Object.keys(settings.env ?? {}).sort(),
  };
}
