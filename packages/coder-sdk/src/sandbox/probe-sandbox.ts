import { readFileSync } from 'node:fs';
import { findExecutable } from '../process/find-executable.js';
import { SANDBOX_BASE_ARGUMENTS, sandboxIsolationArguments } from './wrap-in-sandbox.js';

/** What `probeSandbox` found: a bubblewrap that really starts a sandbox here, or why there is none. */
export type SandboxProbe =
  | {
      readonly available: true;
      /** Absolute path of the `bwrap` that worked; core puts it in `CoderV1Sandbox.executable`. */
      readonly executable: string;
      /** `0.8.0`, when `includeVersion` asked for it. */
      readonly version?: string;
    }
  | {
      readonly available: false;
      /** Why not, in one sentence; bubblewrap's own stderr when it ran and failed. */
      readonly reason: string;
      /** What to run or change to get a sandbox. */
      readonly fix: string;
    };

/** Where to look for bubblewrap. */
export interface ProbeSandboxOptions {
  /** An absolute path to `bwrap` (config `sandbox.bwrap`). Default: `bwrap` on `pathEnvironment`. */
  readonly executable?: string;
  /** The PATH to search. Default `process.env.PATH`. */
  readonly pathEnvironment?: string;
  /** Also run `bwrap --version` (a second process; `snodo doctor` wants it, `snodo run` does not). */
  readonly includeVersion?: boolean;
}

/** A sandbox that cannot start within this long is reported unavailable rather than waited for. */
const probeTimeoutMs = 5000;

/** Results per executable (and per version question), so the probe spawns once per process. */
const cache = new Map<string, Promise<SandboxProbe>>();

/**
 * Is there a working sandbox here? Finds `bwrap` and actually starts it with the isolation every sandbox
 * uses (read-only root, new PID, IPC and network namespaces, no capabilities) around `true`, because being
 * installed is not enough: a kernel without unprivileged user namespaces, Ubuntu 24.04's
 * `kernel.apparmor_restrict_unprivileged_userns` or a container without the privileges make bubblewrap
 * fail at start, and its stderr says which. Never throws. Cached per executable for the life of the
 * process: `snodo run` asks on every run and pays for one spawn.
 */
export function probeSandbox(options: ProbeSandboxOptions = {}): Promise<SandboxProbe> {
  if (process.platform !== 'linux') return Promise.resolve(unsupportedPlatform(process.platform));
  const wanted = options.executable ?? 'bwrap';
  const executable = findExecutable(wanted, options.pathEnvironment ?? process.env.PATH);
  if (executable === undefined) {
    return Promise.resolve({
      available: false,
      reason:
        options.executable === undefined
          ? 'bubblewrap is not installed: no `bwrap` executable on PATH'
          : `bubblewrap is not at the configured path ${options.executable} (no executable file there)`,
      fix: installFix(),
    });
  }
  const key = `${executable}\0${options.includeVersion === true}`;
  let probe = cache.get(key);
  if (probe === undefined) {
    probe = startProbe(executable, options.includeVersion === true, options.pathEnvironment);
    cache.set(key, probe);
  }
  return probe;
}

async function startProbe(
  executable: string,
  includeVersion: boolean,
  pathEnvironment: string | undefined,
): Promise<SandboxProbe> {
  // Loaded on first use: importing the SDK (and so @snodo/core) should not pay for execa.
  const { execa } = await import('execa');
  const run = (args: string[]) =>
    execa(executable, args, {
      cwd: '/',
      env: { PATH: pathEnvironment ?? process.env.PATH ?? '/usr/bin:/bin' },
      extendEnv: false,
      stdin: 'ignore',
      reject: false,
      timeout: probeTimeoutMs,
      killSignal: 'SIGKILL',
      maxBuffer: 64 * 1024,
    });
  const trueCommand = findExecutable('true', pathEnvironment ?? process.env.PATH) ?? '/bin/true';
  const result = await run([
    ...SANDBOX_BASE_ARGUMENTS,
    ...sandboxIsolationArguments(false),
    '--chdir',
    '/',
    '--',
    trueCommand,
  ]);
  if (result.exitCode !== 0) {
    const stderr = String(result.stderr ?? '').trim();
    const how = result.timedOut
      ? `did not finish within ${probeTimeoutMs / 1000}s`
      : result.exitCode === undefined
        ? `could not start (${result.message ?? 'unknown error'})`
        : `exited with code ${result.exitCode}`;
    return {
      available: false,
      reason: `bubblewrap at ${executable} cannot start a sandbox here: it ${how}${stderr === '' ? '' : `: ${lastLine(stderr)}`}`,
      fix: namespaceFix(stderr),
    };
  }
  if (!includeVersion) return { available: true, executable };
  const version = await run(['--version']);
  const found = /(\d+\.\d+(?:\.\d+)?)/.exec(String(version.stdout ?? ''))?.[1];
  return found === undefined
    ? { available: true, executable }
    : { available: true, executable, version: found };
}

function lastLine(text: string): string {
  return (
    text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .at(-1) ?? text
  );
}

function unsupportedPlatform(platform: NodeJS.Platform): SandboxProbe {
  const name =
    platform === 'darwin' ? 'macOS (Seatbelt) is not supported yet' : `${platform} is not supported`;
  return {
    available: false,
    reason: `no sandbox on this platform: ${name}; snodo sandboxes with bubblewrap on Linux`,
    fix:
      'Run snodo on Linux with bubblewrap installed for a sandbox; under `execution.sandbox: auto` it runs ' +
      'unsandboxed here and says so (`required` refuses to run).',
  };
}

/** The install command for this Linux distribution (all three when it cannot tell). */
function installFix(): string {
  let release = '';
  try {
    release = readFileSync('/etc/os-release', 'utf8');
  } catch {
    // No os-release: name every command.
  }
  const ids = /^ID(?:_LIKE)?=(.*)$/gm;
  const family = [...release.matchAll(ids)].map((match) => (match[1] ?? '').replace(/"/g, '')).join(' ');
  if (/\b(debian|ubuntu)\b/.test(family)) return 'sudo apt-get install bubblewrap';
  if (/\b(fedora|rhel|centos)\b/.test(family)) return 'sudo dnf install bubblewrap';
  if (/\barch\b/.test(family)) return 'sudo pacman -S bubblewrap';
  return (
    'install bubblewrap: `sudo apt-get install bubblewrap` (Debian/Ubuntu), ' +
    '`sudo dnf install bubblewrap` (Fedora), `sudo pacman -S bubblewrap` (Arch)'
  );
}

function readSetting(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** What to enable when bubblewrap is installed but cannot create its namespaces. */
function namespaceFix(stderr: string): string {
  if (readSetting('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') {
    return (
      'AppArmor restricts unprivileged user namespaces (Ubuntu 24.04 and later): allow them for bwrap with ' +
      'an AppArmor profile for /usr/bin/bwrap (`userns,`), or `sudo sysctl -w ' +
      'kernel.apparmor_restrict_unprivileged_userns=0`'
    );
  }
  if (readSetting('/proc/sys/kernel/unprivileged_userns_clone') === '0') {
    return 'enable unprivileged user namespaces: `sudo sysctl -w kernel.unprivileged_userns_clone=1`';
  }
  if (readSetting('/proc/sys/user/max_user_namespaces') === '0') {
    return 'enable user namespaces: `sudo sysctl -w user.max_user_namespaces=15000`';
  }
  if (/namespace|uid map|Operation not permitted|Permission denied/i.test(stderr)) {
    return (
      'allow user namespaces for this process: in a container, run it with a seccomp/AppArmor profile ' +
      'that permits them (e.g. `docker run --security-opt seccomp=unconfined --security-opt ' +
      'apparmor=unconfined`, or --privileged); or set `execution.sandbox: off` to run unsandboxed'
    );
  }
  return 'run `bwrap --ro-bind / / -- true` to see the problem, or set `execution.sandbox: off` to run unsandboxed';
}
