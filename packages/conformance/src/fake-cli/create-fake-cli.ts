import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fakeCliProgram } from './fake-cli-program.js';
import type { FakeCliProcessIds, FakeCliRecord, FakeCliStart } from './fake-cli-record.js';
import { type FakeCliScenario, fakeCliScenarioSchema } from './fake-cli-scenario.js';
import { FakeCliScenarioError } from './fake-cli-scenario-error.js';

/** What `createFakeCli` is given. */
export interface CreateFakeCliOptions {
  /** An existing directory to write the executable into (put it on the coder's PATH, or configure its path). */
  readonly directory: string;
  /** The executable's file name (`claude`, `codex`), usually the adapter's `binary`. */
  readonly name: string;
  /** What it prints when run with exactly `versionArgs` (`2.1.3 (Claude Code)`). A newline is added if missing. */
  readonly version: string;
  /** The arguments of the version probe. Default `['--version']`. */
  readonly versionArgs?: readonly string[];
  /** What it does on any other run. Default: nothing, exit 0. */
  readonly scenario?: FakeCliScenario;
}

/** A fake CLI on disk and the evidence it leaves. */
export interface FakeCli {
  /** Absolute path of the executable (mode 0755). */
  readonly path: string;
  /** Absolute path of the scenario JSON beside it. */
  readonly scenarioPath: string;
  /** Absolute path of the directory holding `record.json` and `pids`. */
  readonly evidenceDirectory: string;
  /** Replaces the scenario for the next runs. */
  setScenario(scenario: FakeCliScenario): void;
  /** The record of the last run, or `undefined` when it never ran (version probes are not recorded). */
  readRecord(): FakeCliRecord | undefined;
  /** The pids of every run and grandchild so far. */
  readProcessIds(): FakeCliProcessIds;
  /** Every start so far (not version probes), in order, with the sandbox marker it saw. */
  readStarts(): FakeCliStart[];
}

function validate(scenario: unknown): FakeCliScenario {
  const parsed = fakeCliScenarioSchema.safeParse(scenario);
  if (parsed.success) return parsed.data;
  throw new FakeCliScenarioError({
    problems: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(scenario)'}: ${issue.message}`),
    cause: parsed.error,
  });
}

/**
 * Writes a stand-in for a coding CLI: `<directory>/<name>`, a `#!/usr/bin/env node` script, with
 * `<name>.scenario.json` beside it and an evidence directory `<name>.evidence/`. It answers the version
 * probe with `version`; any other run follows the scenario (edit files, commit, touch `.snodo/`, plant a
 * hook, hang, ignore SIGTERM, spawn a grandchild, print megabytes, read stdin, fail) and records its argv,
 * environment, working directory and where it saw the instructions.
 *
 * Used by the conformance obligations; adapter authors can use it in their own tests too.
 */
export function createFakeCli(options: CreateFakeCliOptions): FakeCli {
  if (options.name === '' || options.name.includes('/')) {
    throw new TypeError(`createFakeCli: name "${options.name}" must be a plain file name.`);
  }
  const scenario = validate(options.scenario ?? {});
  const directory = path.resolve(options.directory);
  const executablePath = path.join(directory, options.name);
  const scenarioPath = path.join(directory, `${options.name}.scenario.json`);
  const evidenceDirectory = path.join(directory, `${options.name}.evidence`);
  mkdirSync(evidenceDirectory, { recursive: true });
  const writeScenario = (value: FakeCliScenario) =>
    writeFileSync(scenarioPath, `${JSON.stringify(value, null, 2)}\n`);
  writeScenario(scenario);
  writeFileSync(
    executablePath,
    fakeCliProgram({
      scenarioPath,
      evidenceDirectory,
      version: options.version,
      versionArgs: [...(options.versionArgs ?? ['--version'])],
    }),
  );
  chmodSync(executablePath, 0o755);

  return {
    path: executablePath,
    scenarioPath,
    evidenceDirectory,
    setScenario: (next) => writeScenario(validate(next)),
    readRecord: () => {
      const recordPath = path.join(evidenceDirectory, 'record.json');
      return existsSync(recordPath)
        ? (JSON.parse(readFileSync(recordPath, 'utf8')) as FakeCliRecord)
        : undefined;
    },
    readProcessIds: () => {
      const pidsPath = path.join(evidenceDirectory, 'pids');
      const lines = existsSync(pidsPath) ? readFileSync(pidsPath, 'utf8').split('\n') : [];
      const ids = (kind: string) =>
        lines
          .filter((line) => line.startsWith(`${kind} `))
          .map((line) => Number(line.slice(kind.length + 1)))
          .filter((pid) => Number.isSafeInteger(pid) && pid > 0);
      return { cli: ids('cli'), grandchildren: ids('grandchild') };
    },
    readStarts: () => {
      const startsPath = path.join(evidenceDirectory, 'starts');
      if (!existsSync(startsPath)) return [];
      return readFileSync(startsPath, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as FakeCliStart);
    },
  };
}
