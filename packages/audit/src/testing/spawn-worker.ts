import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const packageDirectory = join(import.meta.dirname, '..', '..');
const workerPath = join(import.meta.dirname, 'append-worker.ts');

/**
 * Starts `append-worker.ts` as a real OS process (through tsx, so it runs this package's source), with
 * stdout piped for the "ready" line.
 */
export function spawnAppendWorker(logPath: string, count: number | 'forever', label: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', workerPath, logPath, String(count), label], {
    cwd: packageDirectory,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves with the exit code (or signal) once the child has exited, and its stderr for diagnostics. */
export function waitForExit(
  child: ChildProcess,
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** Resolves when the child prints `line` on stdout. */
export function waitForLine(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.split('\n').includes(line)) resolve();
    });
    child.on('exit', () => reject(new Error(`the worker exited before printing ${line}`)));
  });
}
