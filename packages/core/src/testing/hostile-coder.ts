import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { probeSandbox } from '@snodo/coder-sdk';
import { jobPaths } from '../jobs/index.js';
import type { RunTaskResult } from '../pipeline/run-task-result.js';
import { createPipelineFixture, type PipelineFixture, testProtocol } from './pipeline-fixture.js';
import { processMatches } from './runner-process.js';

// Test support only: a coder that is an attacker. It is a command-template coder from config running a
// shell script committed in the repository (as a prompt-injected CLI with a shell tool would), with the
// absolute paths of the user's repository, $SNODO_HOME and HOME baked in.

/** What the script may attack, as host paths. */
export interface HostileTargets {
  /** The main checkout. */
  readonly main: string;
  /** `$SNODO_HOME`. */
  readonly snodoHome: string;
  /** The user's home directory. */
  readonly home: string;
  /** A directory outside every repository, with a file `victim.txt` in it. */
  readonly outside: string;
}

export interface HostileFixture {
  readonly fixture: PipelineFixture;
  readonly targets: HostileTargets;
  /** Commits `script` as `hostile.sh` (its `$MAIN`, `$SNODO_HOME_DIR`, `$USER_HOME`, `$OUTSIDE` set). */
  arm(script: string): void;
  /** One run of the task with the hostile coder and `mock/pass` judges. */
  run(task?: string): Promise<RunTaskResult>;
  /** One honest run (the mock coder), so checkpoints and anchors exist before an attack. */
  honestRun(): Promise<RunTaskResult>;
  /** The job's transcript. */
  transcript(jobId: string): string;
}

/** A provider key in config, to see whether a coder can read and leak it. */
export const CANARY_API_KEY = 'sk-canary-0123456789abcdefghijklmnopqrstuv';

/** Why the sandboxed variants of a test are skipped, or `undefined` when bubblewrap works here. */
export const sandboxMissing: string | undefined = await probeSandbox().then((probe) =>
  probe.available ? undefined : probe.reason,
);

/**
 * A repository whose protocol runs the hostile coder with `execution.sandbox: <mode>`, no fix attempts,
 * `mock/pass` judges and a passing command gate.
 */
export function createHostileFixture(options: {
  sandbox: 'auto' | 'off';
  /** The tests gate's command instead of one that passes (`[sh, gate.sh]` runs what the coder wrote). */
  testCommand?: string;
}): HostileFixture {
  const protocol = testProtocol
    .replace(
      'execution:\n  max_fix_attempts: 1\n',
      `execution:\n  max_fix_attempts: 0\n  sandbox: ${options.sandbox}\n`,
    )
    .replace(
      'test_command: [node, -e, "process.exit(0)"]',
      `test_command: ${options.testCommand ?? '[node, -e, "process.exit(0)"]'}`,
    );
  const fixture = createPipelineFixture({
    protocol,
    config:
      'coders:\n  hostile:\n    command: [sh, hostile.sh, "{prompt}"]\n' +
      `providers:\n  example:\n    api_key: ${CANARY_API_KEY}\n`,
  });
  const outside = join(fixture.root, '..', 'outside');
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'victim.txt'), 'untouched\n');
  const targets: HostileTargets = {
    main: fixture.root,
    snodoHome: fixture.snodoHome,
    home: fixture.env.HOME as string,
    outside,
  };
  return {
    fixture,
    targets,
    arm(script) {
      fixture.write(
        'hostile.sh',
        `MAIN=${JSON.stringify(targets.main)}\nSNODO_HOME_DIR=${JSON.stringify(targets.snodoHome)}\n` +
          `USER_HOME=${JSON.stringify(targets.home)}\nOUTSIDE=${JSON.stringify(targets.outside)}\n${script}\n`,
      );
      fixture.commitAll('a script the coder will run');
    },
    async run(task = 'Do the task') {
      return (await fixture.run({ task, coder: 'hostile', model: 'mock/pass' })).result;
    },
    async honestRun() {
      return (await fixture.run({ task: 'An honest change', mock: true })).result;
    },
    transcript(jobId) {
      return readFileSync(jobPaths(fixture.root, jobId).transcript, 'utf8');
    },
  };
}

/** Every file of snodo's protocol cache (`$SNODO_HOME/cache/protocols/<project>/`) with its text. */
export function protocolCacheFiles(snodoHome: string): Record<string, string> {
  const root = join(snodoHome, 'cache', 'protocols');
  const files: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files[join(entry.parentPath, entry.name)] = readFileSync(join(entry.parentPath, entry.name), 'utf8');
  }
  return files;
}

/** `true` once no process's command line contains `text` (waits up to 5 s). */
export async function noProcessMatches(text: string): Promise<boolean> {
  for (let tries = 0; tries < 50; tries += 1) {
    if (!processMatches(text)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
