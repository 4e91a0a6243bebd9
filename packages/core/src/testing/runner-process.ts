import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readJobState } from '../jobs/index.js';
import type { PipelineFixture } from './pipeline-fixture.js';

// Test support only: the pipeline in a separate OS process, from the built package, as the CLI runs it,
// so a test can SIGKILL snodo itself at a chosen moment.

const coreEntry = join(import.meta.dirname, '..', '..', 'dist', 'index.js');
const mockEntry = join(import.meta.dirname, '..', '..', '..', 'coder-mock', 'dist', 'index.js');

/** A running snodo process and how it ends. */
export interface RunnerProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<unknown>;
}

/** Starts `runTask` for `task` in another process (`coder` from config, or the mock coder with `mock`). */
export function startRunnerProcess(
  fixture: PipelineFixture,
  options: { task: string; coder?: string; mock?: boolean },
): RunnerProcess {
  if (!existsSync(coreEntry)) throw new Error(`build @snodo/core first: ${coreEntry} is missing`);
  const script = join(fixture.root, '..', `runner-${Date.now()}.mjs`);
  writeFileSync(
    script,
    `import { runTask } from ${JSON.stringify(coreEntry)};
import { createMockCoder } from ${JSON.stringify(mockEntry)};
const handle = runTask({
  task: ${JSON.stringify(options.task)},
  cwd: process.argv[2],
  ${options.coder ? `coder: ${JSON.stringify(options.coder)},` : ''}
  ${options.mock ? 'mock: true,' : "model: 'mock/pass',"}
  coders: {
    registrations: [{ id: 'mock', displayName: 'Mock', kind: 'engine-managed', load: () => createMockCoder() }],
    defaultCoderId: 'mock',
    mockCoderId: 'mock',
  },
});
await handle.result;
`,
  );
  const child = spawn(process.execPath, [script, fixture.root], { env: fixture.env, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { child, exited };
}

/** Waits (up to 15 s) until a job of the repository records its coder's process; returns the job id. */
export async function waitForCoderProcess(fixture: PipelineFixture): Promise<string | undefined> {
  const jobsDirectory = join(fixture.root, '.snodo/jobs');
  for (let waited = 0; waited < 15_000; waited += 50) {
    await sleep(50);
    if (!existsSync(jobsDirectory)) continue;
    for (const id of readdirSync(jobsDirectory)) {
      try {
        if (readJobState(fixture.root, id).coderProcess) return id;
      } catch {
        // state.json is being written
      }
    }
  }
  return undefined;
}

/** `true` while some process's command line contains `text`. */
export function processMatches(text: string): boolean {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .some((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const zombie = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
        return !zombie && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    });
}
