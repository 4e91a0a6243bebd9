import { statSync } from 'node:fs';
import path from 'node:path';
import { SandboxInvalidError } from '../errors/sandbox-invalid-error.js';
import type { CoderV1Sandbox, CoderV1SandboxMount } from '../v1/coder-v1-sandbox.js';

/** A command as the supervisor would run it without a sandbox. */
export interface SandboxCommand {
  /** The executable (absolute path, or a name bubblewrap looks up on the command's PATH). */
  readonly file: string;
  /** Its arguments, without the program name. */
  readonly args: readonly string[];
  /** The working directory inside the sandbox (absolute; the same path as on the host). */
  readonly cwd: string;
  /** The command's complete environment. */
  readonly env: Readonly<Record<string, string>>;
}

/** The same command, started through bubblewrap. */
export interface SandboxedCommand {
  /** The `bwrap` executable. */
  readonly file: string;
  /** bubblewrap's options, `--`, then the command and its arguments. */
  readonly args: string[];
  /** The command's environment with the sandbox's own variables (private HOME, TMPDIR) over it. */
  readonly env: Record<string, string>;
}

/**
 * The isolation every sandbox gets, after its mounts: a new PID namespace that dies with the supervisor
 * (no grandchild survives the sandboxed command), no capabilities, a private IPC namespace, and a private
 * network namespace (loopback only) when `network` is `false`.
 *
 * NOTE: running as root, bubblewrap keeps every capability unless told otherwise, and root inside could
 * then `mount -o remount,rw` the read-only root and write to the host. `--cap-drop ALL` is what prevents
 * that; it is never optional.
 */
export function sandboxIsolationArguments(network: boolean): string[] {
  return [
    '--unshare-pid',
    '--die-with-parent',
    '--cap-drop',
    'ALL',
    '--unshare-ipc',
    ...(network ? [] : ['--unshare-net']),
  ];
}

/** The filesystem every sandbox starts from: the host read-only, a minimal `/dev`, its own `/proc`. */
export const SANDBOX_BASE_ARGUMENTS: readonly string[] = [
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
];

function requireAbsolute(value: string, what: string): string {
  if (typeof value !== 'string' || !path.isAbsolute(value)) {
    throw new SandboxInvalidError({
      path: String(value),
      problem: `is not an absolute path (${what})`,
      fix: 'Every sandbox path must be absolute; this is a bug in the code that built the sandbox.',
    });
  }
  return path.normalize(value);
}

function depth(mountPath: string): number {
  return mountPath === '/' ? 0 : mountPath.split('/').length - 1;
}

/** `'directory'`, `'other'` (a file, a socket…) or `undefined` when nothing exists at `target`. */
function kindOf(target: string): 'directory' | 'other' | undefined {
  try {
    return statSync(target).isDirectory() ? 'directory' : 'other';
  } catch {
    return undefined;
  }
}

/** bubblewrap's options for one mount, or none when there is nothing to hide or expose. */
function mountArguments(mount: CoderV1SandboxMount): string[] {
  const target = requireAbsolute(mount.path, `the path of a ${mount.type} mount`);
  const source = requireAbsolute(mount.source ?? mount.path, `the source of a ${mount.type} mount`);
  if (mount.type === 'hide') {
    const kind = kindOf(target);
    if (kind === undefined) return [];
    // A file cannot carry a tmpfs; an empty read-only file hides it just as well.
    return kind === 'directory' ? ['--tmpfs', target] : ['--ro-bind', '/dev/null', target];
  }
  if (mount.type === 'read-only') {
    return kindOf(source) === undefined ? [] : ['--ro-bind', source, target];
  }
  if (mount.type === 'read-write') {
    if (kindOf(source) === undefined) {
      throw new SandboxInvalidError({
        path: source,
        problem: `does not exist, and it should be writable at ${target} inside the sandbox`,
        fix: 'Create it before starting the sandboxed process (a workspace or private directory was removed?).',
      });
    }
    return ['--bind', source, target];
  }
  throw new SandboxInvalidError({
    path: target,
    problem: `has a mount type "${String((mount as { type: unknown }).type)}" that is not hide, read-only or read-write`,
    fix: 'Use one of the three mount types of CoderV1SandboxMount.',
  });
}

/**
 * Turns a command into the same command inside `sandbox`: `bwrap` with the host filesystem read-only, the
 * mounts applied parents before children (by path depth; mounts of the same depth keep their order), the
 * hidden directories made read-only again, the isolation of `sandboxIsolationArguments`, the working
 * directory, `--`, then the command.
 *
 * - `hide` of a directory is an empty tmpfs, read-only once the mounts inside it are in place; of a file,
 *   an empty read-only file; of a path that does not exist on the host, nothing (nothing to hide).
 * - `read-only` whose source does not exist is skipped (nothing to expose).
 * - `read-write` whose source does not exist is a `SandboxInvalidError` naming it.
 * - Any path that is not absolute is a `SandboxInvalidError`.
 *
 * Pure apart from looking at what exists on the host; it starts nothing. The environment is passed to
 * bubblewrap, which hands it on unchanged, with `sandbox.environment` laid over the command's own.
 */
export function wrapInSandbox(sandbox: CoderV1Sandbox, command: SandboxCommand): SandboxedCommand {
  if (sandbox.kind !== 'bubblewrap') {
    throw new SandboxInvalidError({
      path: String(sandbox.executable),
      problem: `is a sandbox of kind "${String(sandbox.kind)}", which this SDK cannot start`,
      fix: 'Only kind "bubblewrap" exists; upgrade @snodo/coder-sdk if core built another.',
    });
  }
  const executable = requireAbsolute(sandbox.executable, 'the bubblewrap executable');
  const cwd = requireAbsolute(command.cwd, 'the working directory');
  const ordered = sandbox.mounts
    .map((mount, index) => ({ mount, index, depth: depth(requireAbsolute(mount.path, 'a mount path')) }))
    .sort((left, right) => left.depth - right.depth || left.index - right.index)
    .map(({ mount }) => ({ mount, args: mountArguments(mount) }));
  const mounts = ordered.flatMap(({ args }) => args);
  // NOTE: a tmpfs is writable, so a write into a hidden directory would succeed and vanish with the
  // sandbox. Remounting it read-only once everything inside it is mounted makes it fail with EROFS instead;
  // the mounts inside keep their own flags. Skipped when a later mount covers the same path exactly.
  const hidden = ordered.filter(({ mount, args }, position) => {
    if (args[0] !== '--tmpfs') return false;
    const target = path.normalize(mount.path);
    return !ordered.slice(position + 1).some((later) => path.normalize(later.mount.path) === target);
  });
  const readOnlyAgain = hidden.flatMap(({ mount }) => ['--remount-ro', path.normalize(mount.path)]);
  return {
    file: executable,
    args: [
      ...SANDBOX_BASE_ARGUMENTS,
      ...mounts,
      ...readOnlyAgain,
      ...sandboxIsolationArguments(sandbox.network),
      '--chdir',
      cwd,
      '--',
      command.file,
      ...command.args,
    ],
    env: { ...command.env, ...sandbox.environment },
  };
}

/**
 * The mount that hides `target` inside `sandbox`, or `undefined` when `target` stays visible there. The
 * deepest mount that covers `target` decides (the last one of that depth). Lets an adapter say "your CLI at
 * ~/.local/bin/claude is hidden by the sandbox" before starting it, instead of bubblewrap's bare
 * "No such file or directory".
 */
export function findHidingMount(sandbox: CoderV1Sandbox, target: string): string | undefined {
  const normalized = path.normalize(target);
  let decisive: { depth: number; mount: CoderV1SandboxMount } | undefined;
  for (const mount of sandbox.mounts) {
    if (!path.isAbsolute(mount.path)) continue;
    const mountPath = path.normalize(mount.path);
    const covers = mountPath === '/' || normalized === mountPath || normalized.startsWith(`${mountPath}/`);
    if (!covers) continue;
    const mountDepth = depth(mountPath);
    if (decisive === undefined || mountDepth >= decisive.depth) decisive = { depth: mountDepth, mount };
  }
  return decisive?.mount.type === 'hide' ? path.normalize(decisive.mount.path) : undefined;
}
