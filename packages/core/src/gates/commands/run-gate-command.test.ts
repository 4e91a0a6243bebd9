import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntilGone } from '../testing/process-liveness.js';
import { runGateCommand } from './run-gate-command.js';

let directory: string;
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function workspace(): string {
  directory = mkdtempSync(join(tmpdir(), 'snodo-command-'));
  return directory;
}

const env = { PATH: process.env.PATH };

describe('runGateCommand', () => {
  it('runs a string through sh -c in the given directory and environment', async () => {
    const cwd = workspace();
    const result = await runGateCommand({
      command: { shell: 'echo "in $(pwd) with $MARKER"; exit 3' },
      cwd,
      env: { ...env, MARKER: 'yes' },
      timeoutMs: 10_000,
    });
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 3, signal: null });
    expect(result.output).toContain(`with yes`);
  });

  it('runs an array directly, never through a shell', async () => {
    const result = await runGateCommand({
      command: { argv: ['node', '-e', 'console.log(process.argv[1])', 'a; echo injected $HOME'] },
      cwd: workspace(),
      env,
      timeoutMs: 10_000,
    });
    expect(result.exitCode).toBe(0);
    expect(result.output.trim()).toBe('a; echo injected $HOME');
  });

  it('reports a command that cannot start', async () => {
    const result = await runGateCommand({
      command: { argv: ['snodo-no-such-command-xyz'] },
      cwd: workspace(),
      env,
      timeoutMs: 10_000,
    });
    expect(result).toMatchObject({
      outcome: 'spawn-failed',
      spawnError: 'command not found: snodo-no-such-command-xyz',
    });
  });

  it('kills the whole process group on timeout, even children that ignore SIGTERM', {
    timeout: 20_000,
  }, async () => {
    const cwd = workspace();
    const result = await runGateCommand(
      {
        command: { shell: `trap '' TERM; sleep 30 & echo $! > child.pid; wait` },
        cwd,
        env,
        timeoutMs: 500,
      },
      { killGraceMs: 300 },
    );
    expect(result.outcome).toBe('timed-out');
    const child = Number(readFileSync(join(cwd, 'child.pid'), 'utf8'));
    expect(await waitUntilGone(child)).toBe(true);
  });

  it('does not wait for, and does not leave behind, background processes of a finished command', {
    timeout: 20_000,
  }, async () => {
    const cwd = workspace();
    const result = await runGateCommand({
      command: { shell: 'sleep 30 & echo $! > child.pid; echo done' },
      cwd,
      env,
      timeoutMs: 15_000,
    });
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 0 });
    expect(result.output).toContain('done');
    const child = Number(readFileSync(join(cwd, 'child.pid'), 'utf8'));
    expect(await waitUntilGone(child)).toBe(true);
  });

  it('keeps only the tail of huge output', async () => {
    const result = await runGateCommand(
      {
        command: { argv: ['node', '-e', 'for (let i = 0; i < 20000; i++) console.log("line " + i)'] },
        cwd: workspace(),
        env,
        timeoutMs: 10_000,
      },
      { outputCapBytes: 4096 },
    );
    expect(result.outputTruncated).toBe(true);
    expect(result.output.length).toBeLessThanOrEqual(4096);
    expect(result.output).toContain('line 19999');
    expect(result.output).not.toContain('line 1\n');
  });

  it('stops on abort', { timeout: 20_000 }, async () => {
    const cwd = workspace();
    const controller = new AbortController();
    const running = runGateCommand({
      command: { shell: 'echo $$ > shell.pid; sleep 30' },
      cwd,
      env,
      timeoutMs: 15_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 300);
    const result = await running;
    expect(result.outcome).toBe('aborted');
    const shell = Number(readFileSync(join(cwd, 'shell.pid'), 'utf8'));
    expect(await waitUntilGone(shell)).toBe(true);
  });
});
