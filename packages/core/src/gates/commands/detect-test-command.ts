import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A test command found from the worktree's marker files. */
export interface DetectedTestCommand {
  /** The argv to run (never through a shell). */
  readonly argv: readonly string[];
  /** The marker file that decided it, e.g. `package.json`. */
  readonly marker: string;
}

/** The result of detection: a command, or the reasons nothing was found (for the warn's justification). */
export type TestCommandDetection =
  | { readonly found: true; readonly command: DetectedTestCommand }
  | { readonly found: false; readonly notes: readonly string[] };

const npmPlaceholder = 'no test specified';

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** pnpm, yarn, bun or npm: the `packageManager` field first (corepack), then the lockfile. */
function packageManager(directory: string, manifest: Record<string, unknown>): string {
  const declared =
    typeof manifest.packageManager === 'string' ? manifest.packageManager.split('@')[0] : undefined;
  if (declared === 'pnpm' || declared === 'yarn' || declared === 'bun' || declared === 'npm') return declared;
  if (existsSync(join(directory, 'pnpm-lock.yaml'))) return 'pnpm';
  if (existsSync(join(directory, 'yarn.lock'))) return 'yarn';
  if (existsSync(join(directory, 'bun.lock')) || existsSync(join(directory, 'bun.lockb'))) return 'bun';
  return 'npm';
}

function detectFromPackageJson(directory: string, notes: string[]): DetectedTestCommand | undefined {
  const text = readText(join(directory, 'package.json'));
  if (text === undefined) return undefined;
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(text) as Record<string, unknown>;
  } catch {
    notes.push('package.json is not valid JSON');
    return undefined;
  }
  const scripts = manifest.scripts as Record<string, unknown> | undefined;
  const test = scripts?.test;
  if (typeof test !== 'string' || test.trim() === '') {
    notes.push('package.json has no "test" script');
    return undefined;
  }
  if (test.includes(npmPlaceholder)) {
    notes.push(`package.json's "test" script is npm's placeholder ("${npmPlaceholder}")`);
    return undefined;
  }
  const manager = packageManager(directory, manifest);
  // NOTE: `bun test` runs bun's own test runner, not the script; `bun run test` runs the script.
  const argv = manager === 'bun' ? ['bun', 'run', 'test'] : [manager, 'test'];
  return { argv, marker: 'package.json' };
}

function detectFromMakefile(directory: string, notes: string[]): DetectedTestCommand | undefined {
  for (const name of ['GNUmakefile', 'makefile', 'Makefile']) {
    const text = readText(join(directory, name));
    if (text === undefined) continue;
    // A `test:` rule, not a `test := value` assignment.
    if (/^test[ \t]*:(?!=)/m.test(text)) return { argv: ['make', 'test'], marker: name };
    notes.push(`${name} has no "test:" target`);
    return undefined;
  }
  return undefined;
}

/**
 * Finds the project's test command from marker files in `directory` (the worktree), first match wins:
 * package.json with a real `test` script → `<pnpm|yarn|npm> test` / `bun run test`; pyproject.toml,
 * setup.cfg or setup.py → `pytest`; Cargo.toml → `cargo test`; a Makefile with a `test:` target →
 * `make test`; go.mod → `go test ./...`. A marker without a usable command (no test script, no test
 * target) falls through to the next one and is mentioned in `notes`.
 */
export function detectTestCommand(directory: string): TestCommandDetection {
  const notes: string[] = [];
  const fromPackage = detectFromPackageJson(directory, notes);
  if (fromPackage) return { found: true, command: fromPackage };
  for (const marker of ['pyproject.toml', 'setup.cfg', 'setup.py']) {
    if (existsSync(join(directory, marker))) return { found: true, command: { argv: ['pytest'], marker } };
  }
  if (existsSync(join(directory, 'Cargo.toml'))) {
    return { found: true, command: { argv: ['cargo', 'test'], marker: 'Cargo.toml' } };
  }
  const fromMakefile = detectFromMakefile(directory, notes);
  if (fromMakefile) return { found: true, command: fromMakefile };
  if (existsSync(join(directory, 'go.mod'))) {
    return { found: true, command: { argv: ['go', 'test', './...'], marker: 'go.mod' } };
  }
  return { found: false, notes };
}
