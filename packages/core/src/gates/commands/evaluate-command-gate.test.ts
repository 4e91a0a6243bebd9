import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntilGone } from '../../testing/process-liveness.js';
import { evaluateCommandGate } from './evaluate-command-gate.js';
import type { GateCommandRequest, GateCommandRunner } from './gate-command-runner.js';
import { runGateCommand } from './run-gate-command.js';

let directory: string;
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function workspace(files: Record<string, string> = {}): string {
  directory = mkdtempSync(join(tmpdir(), 'snodo-quality-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(directory, name), content);
  return directory;
}

const options = (worktreePath: string, runCommand: GateCommandRunner = runGateCommand) => ({
  phase: 'post_execute' as const,
  worktreePath,
  env: { PATH: process.env.PATH },
  runCommand,
});

describe('evaluateCommandGate with real commands', () => {
  it('passes on exit 0 with the last lines as evidence', async () => {
    const verdict = await evaluateCommandGate(
      {
        validator_id: 'tests',
        validator_type: 'quality',
        tooling: { test_command: 'echo "12 tests passed"' },
      },
      options(workspace()),
    );
    expect(verdict).toMatchObject({ gateId: 'tests', kind: 'command', severity: 'pass', error: false });
    expect(verdict.justification).toContain('12 tests passed');
    expect(verdict.evidence).toMatchObject({
      command: 'echo "12 tests passed"',
      source: 'configured',
      exitCode: 0,
    });
    expect(verdict.evidence?.outputTail).toBe('12 tests passed');
  });

  it('blocks on a failing command with the output tail as evidence', async () => {
    const verdict = await evaluateCommandGate(
      {
        validator_id: 'tests',
        validator_type: 'quality',
        tooling: {
          test_command: [
            'node',
            '-e',
            'console.error("AssertionError: expected 2 to be 3"); process.exit(1)',
          ],
        },
      },
      options(workspace()),
    );
    expect(verdict).toMatchObject({ severity: 'blocker', error: false });
    expect(verdict.justification).toContain('exited with code 1');
    expect(verdict.justification).toContain('AssertionError');
    expect(verdict.evidence?.outputTail).toContain('expected 2 to be 3');
  });

  it('names the last line of a failure that floods its output with whitespace first', async () => {
    // Regression (issue 14): trimming 64 KB of spaces before the last line took seconds per verdict.
    const flood = 'process.stdout.write(" ".repeat(200000) + "\\n".repeat(50000));';
    const verdict = await evaluateCommandGate(
      {
        validator_id: 'tests',
        validator_type: 'quality',
        tooling: {
          // The message is put together at run time: the command line itself must not hold it.
          test_command: [
            'node',
            '-e',
            `${flood} console.log(["AssertionError", "flood"].join(": ")); process.exitCode = 1;`,
          ],
        },
      },
      options(workspace()),
    );
    expect(verdict).toMatchObject({ severity: 'blocker', evidence: { outputTruncated: true } });
    expect(verdict.justification).toContain('AssertionError: flood');
    expect(verdict.evidence?.outputTail).toMatch(/\n\nAssertionError: flood$/);
  });

  it('blocks on a timeout, naming it, with the process group killed', { timeout: 20_000 }, async () => {
    const cwd = workspace();
    const verdict = await evaluateCommandGate(
      {
        validator_id: 'tests',
        validator_type: 'quality',
        tooling: { test_command: 'sleep 30 & echo $! > child.pid; sleep 30', timeout: 0.5 },
      },
      options(cwd),
    );
    expect(verdict).toMatchObject({
      severity: 'blocker',
      error: false,
      evidence: { outcome: 'timed-out', timeoutMs: 500 },
    });
    expect(verdict.justification).toContain('did not finish within 0.5s');
    const child = Number(readFileSync(join(cwd, 'child.pid'), 'utf8'));
    expect(await waitUntilGone(child)).toBe(true);
  });

  it('blocks with the cause when the command does not exist', async () => {
    const direct = await evaluateCommandGate(
      {
        validator_id: 'tests',
        validator_type: 'quality',
        tooling: { test_command: ['snodo-missing-tool-xyz'] },
      },
      options(workspace()),
    );
    expect(direct).toMatchObject({
      severity: 'blocker',
      error: false,
      evidence: { outcome: 'spawn-failed' },
    });
    expect(direct.justification).toContain('command not found: snodo-missing-tool-xyz');
    const viaShell = await evaluateCommandGate(
      {
        validator_id: 'tests',
        validator_type: 'quality',
        tooling: { test_command: 'snodo-missing-tool-xyz' },
      },
      options(directory),
    );
    expect(viaShell).toMatchObject({ severity: 'blocker', evidence: { exitCode: 127 } });
    expect(viaShell.justification).toContain('could not find the command');
  });

  it('runs the auto-detected command (a Makefile test target)', async () => {
    const cwd = workspace({ Makefile: 'test:\n\t@echo make-tests-ran\n' });
    const verdict = await evaluateCommandGate(
      { validator_id: 'tests', validator_type: 'quality' },
      options(cwd),
    );
    expect(verdict).toMatchObject({
      severity: 'pass',
      evidence: { command: 'make test', source: 'detected', marker: 'Makefile' },
    });
    expect(verdict.evidence?.outputTail).toContain('make-tests-ran');
  });
});

describe('evaluateCommandGate configuration', () => {
  it('warns with a how-to when nothing is configured or detected', async () => {
    const verdict = await evaluateCommandGate(
      { validator_id: 'tests', validator_type: 'quality' },
      options(workspace({ 'package.json': '{}' })),
    );
    expect(verdict).toMatchObject({ severity: 'warn', error: false });
    expect(verdict.justification).toContain('No test command configured or detected');
    expect(verdict.justification).toContain('tooling.test_command');
    expect(verdict.justification).toContain('package.json has no "test" script');
  });

  it('hands the worktree, environment and timeout to the runner', async () => {
    const requests: GateCommandRequest[] = [];
    const runner: GateCommandRunner = async (request) => {
      requests.push(request);
      return { outcome: 'exited', exitCode: 0, signal: null, output: 'ok', outputTruncated: false };
    };
    const cwd = workspace({
      'package.json': JSON.stringify({ scripts: { test: 'vitest' } }),
      'pnpm-lock.yaml': '',
    });
    await evaluateCommandGate({ validator_id: 'tests', validator_type: 'quality' }, options(cwd, runner));
    expect(requests).toEqual([
      { command: { argv: ['pnpm', 'test'] }, cwd, env: { PATH: process.env.PATH }, timeoutMs: 300_000 },
    ]);
  });

  it.each([
    [{ test_command: '' }, 'test_command'],
    [{ test_command: [] }, 'test_command'],
    [{ test_command: 'true', timeout: -1 }, 'tooling.timeout'],
  ])('makes misconfiguration %j an error verdict', async (tooling, named) => {
    const verdict = await evaluateCommandGate(
      { validator_id: 'tests', validator_type: 'quality', tooling: tooling as never },
      options(workspace()),
    );
    expect(verdict).toMatchObject({ severity: 'blocker', error: true });
    expect(verdict.justification).toContain(named);
  });
});
