import {
  type CoderV1Availability,
  type CoderV1AvailabilityOptions,
  findExecutable,
  isVersionInRange,
  probeExecutableVersion,
} from '@snodo/coder-sdk';
import { OpencodeClient } from './opencode-client.js';
import type { OpencodeRunConfig } from './opencode-config.js';
import { OpencodeRequestError } from './opencode-request-error.js';
import { urlServerCredentials } from './runtime-url.js';
import { checkServerVersion } from './server-version.js';
import { SUPPORTED_OPENCODE_VERSIONS } from './version.js';

/** The adapter facts the availability check words its answers with. */
export interface AvailabilitySubject {
  readonly id: string;
  readonly displayName: string;
  readonly installHint: string;
}

/** How to install Docker, for the docker runtime's answers. */
export const DOCKER_INSTALL_HINT = 'Install Docker (https://docs.docker.com/get-docker/)';

/** Limit for each probe: availability runs before every job and must stay quick. */
const probeTimeoutMs = 10_000;

/**
 * Can the configured runtime run here? Host: `opencode` found and a 1.x release. Docker: the docker CLI
 * found and the engine answering (`docker version`); the image and the OpenCode version in it are checked
 * when the container starts. URL: the server answers its health check as OpenCode 1.x. Never throws and
 * writes nothing; a run-time failure of the same kind is still caught by `doRun`.
 */
export async function checkOpencodeAvailability(
  subject: AvailabilitySubject,
  config: OpencodeRunConfig,
  options: CoderV1AvailabilityOptions,
): Promise<CoderV1Availability> {
  const base = { credentials: 'not-needed' } as const;
  if (config.runtime === 'host') {
    const wanted = options.binaryPath ?? config.binary ?? 'opencode';
    const binaryPath = findExecutable(wanted, options.env.PATH);
    if (binaryPath === undefined) {
      return {
        ...base,
        ready: false,
        installed: false,
        reason: `${subject.displayName} needs OpenCode 1.x: no \`${wanted}\` executable was found${wanted.includes('/') ? '' : ' on PATH'}`,
        fix: subject.installHint,
      };
    }
    const probe = await probeExecutableVersion(binaryPath, ['--version'], {
      env: options.env,
      timeoutMs: probeTimeoutMs,
    });
    const found = { ...base, installed: true, binaryPath, version: probe.version };
    if (probe.version === undefined) {
      return {
        ...found,
        ready: false,
        reason: `\`${binaryPath} --version\` printed no version${probe.problem === undefined ? '' : ` (${probe.problem})`}`,
        fix: subject.installHint,
      };
    }
    const versionSupported = isVersionInRange(probe.version, SUPPORTED_OPENCODE_VERSIONS);
    if (!versionSupported) {
      return {
        ...found,
        versionSupported,
        ready: false,
        reason: `${binaryPath} is OpenCode ${probe.version}; ${subject.displayName} speaks the V1 server API of OpenCode 1.x`,
        fix: subject.installHint,
      };
    }
    return { ...found, versionSupported, ready: true };
  }

  if (config.runtime === 'docker') {
    const dockerPath = findExecutable(config.dockerBinary, options.env.PATH);
    if (dockerPath === undefined) {
      return {
        ...base,
        ready: false,
        installed: false,
        reason: `the docker runtime of ${subject.displayName} needs the docker CLI, and no \`${config.dockerBinary}\` was found`,
        fix: `${DOCKER_INSTALL_HINT}, or set coders.${subject.id}.runtime to host`,
      };
    }
    const probe = await probeExecutableVersion(dockerPath, ['version', '--format', '{{.Server.Version}}'], {
      env: options.env,
      timeoutMs: probeTimeoutMs,
    });
    if (probe.problem !== undefined || probe.version === undefined) {
      return {
        ...base,
        ready: false,
        installed: true,
        binaryPath: dockerPath,
        reason: `the Docker engine does not answer (\`docker version\` ${probe.problem ?? 'printed no server version'})`,
        fix: `start Docker (or set DOCKER_HOST in coders.${subject.id}.env), or set coders.${subject.id}.runtime to host`,
      };
    }
    return { ...base, ready: true, installed: true, binaryPath: dockerPath };
  }

  const url = config.url ?? '';
  const credentials = urlServerCredentials(config, options.env);
  const client = new OpencodeClient({
    baseUrl: url,
    directory: undefined,
    ...credentials,
    requestTimeoutMs: probeTimeoutMs,
  });
  try {
    const version = await checkServerVersion(client, subject);
    return { ...base, ready: true, installed: true, version, versionSupported: true };
  } catch (error) {
    const found = (error as { foundVersion?: unknown }).foundVersion;
    if (typeof found === 'string') {
      return {
        ...base,
        ready: false,
        installed: true,
        version: found,
        versionSupported: false,
        reason: (error as Error).message,
        fix: `point coders.${subject.id}.url at an OpenCode 1.x server`,
      };
    }
    const refused =
      OpencodeRequestError.isInstance(error) &&
      error.failure === 'status' &&
      (error.status === 401 || error.status === 403);
    return {
      ...base,
      ready: false,
      installed: true,
      reason: refused
        ? `the OpenCode server at ${url} refused snodo's credentials (${(error as Error).message})`
        : `no OpenCode server answers at ${url} (${(error as Error).message})`,
      fix: refused
        ? `set coders.${subject.id}.env.OPENCODE_SERVER_PASSWORD to the server's password`
        : `start one (OPENCODE_SERVER_PASSWORD=… opencode serve --port 4096), or change coders.${subject.id}.url`,
    };
  }
}
