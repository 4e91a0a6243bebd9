import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { CoderV1Sandbox, CoderV1SandboxMount } from '@snodo/coder-sdk';

/** Everything `buildJobSandbox` needs to know about one job. */
export interface JobSandboxOptions {
  /** The `bwrap` that starts it. */
  readonly executable: string;
  /** Whether the sandbox shares the host's network. */
  readonly network: boolean;
  /** The main checkout: hidden (its untracked files, its `.git/config` with remote credentials). */
  readonly repositoryRoot: string;
  /** `$SNODO_HOME`: config, signing key, checkpoints. Hidden. */
  readonly snodoHome: string;
  /** Where every job's workspace lives: hidden, so one job never sees another's. */
  readonly worktreesDirectory: string;
  /** The user's real home directory: hidden. */
  readonly userHomeDirectory: string;
  /** The workspace's own mounts (read-write workspace, read-only git metadata and object store). */
  readonly workspaceMounts: readonly CoderV1SandboxMount[];
  /** The job's private HOME, writable inside. */
  readonly homeDirectory: string;
  /** The job's coder state directory, writable inside. */
  readonly stateDirectory: string;
  /** The host directory that is the job's private `/tmp` inside. */
  readonly temporaryDirectory: string;
  /** Files the coder reads that live in a hidden place (the instructions under `.snodo/jobs/<id>/`). */
  readonly readableFiles: readonly string[];
  /** snodo's PATH: its directories under a hidden root are put back read-only, so tools still run. */
  readonly pathEnvironment: string | undefined;
  /** Executables that must run inside (the coder's CLI): their install directories are put back too. */
  readonly executables: readonly string[];
  /** snodo's environment, for `XDG_RUNTIME_DIR`. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Sockets that would hand root, or the user's session, to anything that can connect to them. */
const hostSockets = ['/var/run/docker.sock', '/run/docker.sock', '/run/podman/podman.sock'];

function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function isDirectory(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A directory holding executables, plus its prefix's `lib`, `lib64` and `libexec` (an npm prefix keeps its
 * packages in `lib/node_modules`, a Python prefix its modules in `lib/python3…`), and, when it lies inside
 * a `node_modules` tree, that whole tree (a CLI's launcher finds its platform binary in a sibling package).
 */
function toolDirectories(directory: string): string[] {
  const prefix = path.dirname(directory);
  const found = [directory, ...['lib', 'lib64', 'libexec'].map((name) => path.join(prefix, name))];
  const segments = directory.split(path.sep);
  const outermost = segments.indexOf('node_modules');
  if (outermost > 0) found.push(segments.slice(0, outermost + 1).join(path.sep));
  return found.filter(isDirectory);
}

function realDirectoryOf(executable: string): string | undefined {
  try {
    return path.dirname(realpathSync(executable));
  } catch {
    return undefined;
  }
}

/**
 * The sandbox of one job's code-running steps (SPEC §12), as data for `CoderV1Request.sandbox` and command
 * gates: the whole filesystem read-only; hidden (empty) the main checkout, `$SNODO_HOME`, every job's
 * workspaces, the user's HOME, their runtime directory, the host's `/tmp` (the job's own instead) and host
 * sockets; put back read-only what the job needs from those (the repository's object store, the
 * instructions, tools installed there); writable only the workspace, the job's private HOME and its coder
 * state directory. Mount order does not matter: the SDK applies parents before children.
 */
export function buildJobSandbox(options: JobSandboxOptions): CoderV1Sandbox {
  const runtimeDirectory =
    options.env.XDG_RUNTIME_DIR ?? (process.getuid ? `/run/user/${process.getuid()}` : undefined);
  const hidden = [
    options.repositoryRoot,
    options.snodoHome,
    options.worktreesDirectory,
    options.userHomeDirectory,
    ...(runtimeDirectory ? [runtimeDirectory] : []),
    ...hostSockets,
  ]
    .filter((candidate) => path.isAbsolute(candidate) && candidate !== '/')
    .map((candidate) => path.resolve(candidate));
  const writable = options.workspaceMounts
    .filter((mount) => mount.type === 'read-write')
    .map((mount) => mount.path);
  // The host's /tmp is replaced by the job's own, so whatever lives there is as hidden as the rest.
  const underHidden = (candidate: string) =>
    isInside('/tmp', candidate) || hidden.some((root) => isInside(root, candidate));
  const underWritable = (candidate: string) => writable.some((root) => isInside(root, candidate));

  const toolSources = [
    ...(options.pathEnvironment ?? '').split(path.delimiter).filter((entry) => path.isAbsolute(entry)),
    ...options.executables.flatMap((executable) => realDirectoryOf(executable) ?? []),
  ];
  const tools = new Set<string>();
  for (const source of toolSources) {
    for (const directory of toolDirectories(path.resolve(source))) {
      if (underHidden(directory) && !underWritable(directory)) tools.add(directory);
    }
  }

  const mounts: CoderV1SandboxMount[] = [
    ...[...new Set(hidden)]
      .filter((candidate) => existsSync(candidate))
      .map((candidate) => ({ type: 'hide' as const, path: candidate })),
    ...[...tools].sort().map((directory) => ({ type: 'read-only' as const, path: directory })),
    ...options.readableFiles
      .filter((file) => existsSync(file))
      .map((file) => ({ type: 'read-only' as const, path: file })),
    { type: 'read-write', path: '/tmp', source: options.temporaryDirectory },
    { type: 'read-write', path: options.homeDirectory },
    { type: 'read-write', path: options.stateDirectory },
    ...options.workspaceMounts,
  ];
  return {
    kind: 'bubblewrap',
    executable: options.executable,
    mounts,
    network: options.network,
    environment: { HOME: options.homeDirectory, TMPDIR: '/tmp' },
  };
}
