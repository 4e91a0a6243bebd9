import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The setup command detected from a repository's files, and the file that decided it. */
export interface DetectedWorkspaceSetup {
  /** The argv to run in the workspace (never through a shell). */
  readonly command: readonly string[];
  /** What decided it, for the progress line and the audit log: `lockfile package-lock.json`. */
  readonly source: `lockfile ${string}` | `manifest ${string}`;
  /** The program the command starts, which must be on PATH (`npm`, `uv`…). */
  readonly tool: string;
}

/** One rule of detection: the file that must exist, and the command it implies. */
interface SetupRule {
  readonly file: string;
  readonly kind: 'lockfile' | 'manifest';
  readonly command: (directory: string) => readonly string[];
  /** Only when this file is absent. */
  readonly unless?: string;
}

/** Yarn 2+ ("berry") lockfiles start with a `__metadata:` block; classic yarn has no such key. */
function isYarnBerry(directory: string): boolean {
  if (existsSync(join(directory, '.yarnrc.yml'))) return true;
  try {
    return /^__metadata:/m.test(readFileSync(join(directory, 'yarn.lock'), 'utf8').slice(0, 4096));
  } catch {
    return false;
  }
}

/**
 * Offline-first installs, in the order they are tried: JavaScript lockfiles first (a repository with a
 * pnpm lockfile and a stray package-lock.json is a pnpm project), then Python, Go and Rust. Each command
 * installs exactly what the lockfile pins and fails instead of rewriting it, so setup never changes a
 * tracked file in the usual case.
 *
 * A Python project without `uv.lock` gets no rule: `pip install -e .` writes into a system or user Python
 * the sandbox keeps read-only, and a virtualenv in the workspace needs the network for its build backend
 * and is not on the tests' PATH. Guessing would turn every such run into a setup failure; the project
 * says what it wants in `execution.setup` instead (the README shows the two usual forms).
 */
const SETUP_RULES: readonly SetupRule[] = [
  {
    file: 'pnpm-lock.yaml',
    kind: 'lockfile',
    command: () => ['pnpm', 'install', '--frozen-lockfile', '--prefer-offline'],
  },
  {
    file: 'yarn.lock',
    kind: 'lockfile',
    command: (directory) =>
      isYarnBerry(directory)
        ? ['yarn', 'install', '--immutable']
        : ['yarn', 'install', '--frozen-lockfile', '--prefer-offline'],
  },
  { file: 'bun.lock', kind: 'lockfile', command: () => ['bun', 'install', '--frozen-lockfile'] },
  { file: 'bun.lockb', kind: 'lockfile', command: () => ['bun', 'install', '--frozen-lockfile'] },
  {
    file: 'package-lock.json',
    kind: 'lockfile',
    command: () => ['npm', 'ci', '--prefer-offline', '--no-audit', '--no-fund'],
  },
  {
    file: 'npm-shrinkwrap.json',
    kind: 'lockfile',
    command: () => ['npm', 'ci', '--prefer-offline', '--no-audit', '--no-fund'],
  },
  { file: 'uv.lock', kind: 'lockfile', command: () => ['uv', 'sync'] },
  { file: 'go.mod', kind: 'manifest', command: () => ['go', 'mod', 'download'] },
  { file: 'Cargo.lock', kind: 'lockfile', command: () => ['cargo', 'fetch'] },
];

/**
 * The command that prepares a fresh checkout of the repository at `directory` (installs its dependencies),
 * detected from the files at its root, first rule wins: `pnpm-lock.yaml` → `pnpm install
 * --frozen-lockfile --prefer-offline`; `yarn.lock` → `yarn install --frozen-lockfile --prefer-offline`
 * (Yarn 2+: `yarn install --immutable`); `bun.lock`/`bun.lockb` → `bun install --frozen-lockfile`;
 * `package-lock.json`/`npm-shrinkwrap.json` → `npm ci --prefer-offline --no-audit --no-fund`; `uv.lock` →
 * `uv sync`; `go.mod` → `go mod download`; `Cargo.lock` → `cargo fetch` (no guess for a Python project
 * without `uv.lock`: see `SETUP_RULES`). `undefined` when none applies (a repository with only a README, a package.json without
 * a lockfile). Only the root is looked at: a monorepo's tool installs its workspaces from there.
 */
export function detectWorkspaceSetup(directory: string): DetectedWorkspaceSetup | undefined {
  for (const rule of SETUP_RULES) {
    if (!existsSync(join(directory, rule.file))) continue;
    if (rule.unless !== undefined && existsSync(join(directory, rule.unless))) continue;
    const command = rule.command(directory);
    return { command, source: `${rule.kind} ${rule.file}`, tool: command[0] as string };
  }
  return undefined;
}
