import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { detectTestCommand } from '../gates/commands/detect-test-command.js';
import { type DetectedWorkspaceSetup, detectWorkspaceSetup } from './detect-workspace-setup.js';

/** What `snodo init` found in a repository, to write into the protocol explicitly. */
export interface ProjectCommands {
  /** The test command and the file that decided it; absent when the repository has no tests to run. */
  readonly test?: { readonly command: readonly string[]; readonly source: string };
  /** Why no test command was found (`package.json's "test" script is npm's placeholder`), for init to say. */
  readonly testNotes: readonly string[];
  /** The workspace setup `execution.setup: auto` would run; absent when there is nothing to install. */
  readonly setup?: DetectedWorkspaceSetup;
}

/** A `tests/` directory holding Python files, the layout pytest collects without any configuration. */
function hasPythonTests(directory: string): boolean {
  try {
    return readdirSync(join(directory, 'tests')).some((name) => name.endsWith('.py'));
  } catch {
    return false;
  }
}

/**
 * The commands a repository's files imply, detected with the rules the run itself uses: the command gate's
 * `detectTestCommand` (a real package.json `test` script through the lockfile's package manager, pytest for
 * pyproject.toml/setup.cfg/setup.py, `cargo test`, `make test` for a Makefile `test:` target, `go test
 * ./...`) — and, where it finds nothing, `pytest` for a `pytest.ini` or a `tests/` directory of Python files —
 * and `detectWorkspaceSetup` for the install. `snodo init` writes the result into the protocol so a run
 * never depends on a guess made later.
 */
export function detectProjectCommands(directory: string): ProjectCommands {
  const setup = detectWorkspaceSetup(directory);
  const detection = detectTestCommand(directory);
  const withSetup = setup === undefined ? {} : { setup };
  if (detection.found) {
    const { argv, marker } = detection.command;
    return { test: { command: argv, source: marker }, testNotes: [], ...withSetup };
  }
  const pytestMarker = existsSync(join(directory, 'pytest.ini'))
    ? 'pytest.ini'
    : hasPythonTests(directory)
      ? 'tests/'
      : undefined;
  if (pytestMarker !== undefined) {
    return { test: { command: ['pytest'], source: pytestMarker }, testNotes: [], ...withSetup };
  }
  return { testNotes: detection.notes, ...withSetup };
}
