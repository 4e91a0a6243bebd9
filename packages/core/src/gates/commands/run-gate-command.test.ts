import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CoderV1Sandbox, probeSandbox } from '@snodo/coder-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntilGone } from '../../testing/process-liveness.js';
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

  it('kills a daemon the command started with setsid (it left the group but kept its tag)', {
    timeout: 20_000,
  }, async () => {
    const cwd = workspace();
    const result = await runGateCommand({
      command: {
        // Exits only once the daemon runs sleep as the leader of its own group, so the group kill misses it.
        shell: `setsid sleep 300 >/dev/null 2>&1 & daemon=$!; echo $daemon > daemon.pid
          until [ "$(cut -d' ' -f2,5 /proc/$daemon/stat 2>/dev/null)" = "(sleep) $daemon" ]; do sleep 0.02; done`,
      },
      cwd,
      env,
      timeoutMs: 15_000,
    });
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 0 });
    const daemon = Number(readFileSync(join(cwd, 'daemon.pid'), 'utf8'));
    expect(await waitUntilGone(daemon)).toBe(true);
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

const probe = await probeSandbox();

describe.skipIf(!probe.available)(
  probe.available ? 'runGateCommand in a sandbox' : `runGateCommand in a sandbox (skipped: ${probe.reason})`,
  () => {
    /** A workspace writable inside, a sibling directory that stays read-only, the network as asked. */
    function sandboxed(network: boolean): { cwd: string; outside: string; sandbox: CoderV1Sandbox } {
      const root = workspace();
      const cwd = join(root, 'worktree');
      const outside = join(root, 'outside');
      mkdirSync(cwd);
      mkdirSync(outside);
      const sandbox: CoderV1Sandbox = {
        kind: 'bubblewrap',
        executable: probe.available ? probe.executable : '/usr/bin/bwrap',
        mounts: [{ type: 'read-write', path: cwd }],
        network,
        environment: {},
      };
      return { cwd, outside, sandbox };
    }

    it('a test command that tries to escape writes only its worktree and reaches no host server offline', async () => {
      const server = createServer((_request, response) => response.end('reached\n'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      try {
        const { cwd, outside, sandbox } = sandboxed(false);
        const result = await runGateCommand({
          command: {
            shell:
              `echo built > out.txt; echo evil > '${join(outside, 'planted.txt')}'; ` +
              `'${process.execPath}' -e "fetch('${url}').then(() => console.log('REACHED'), (e) => console.log('offline', e.cause?.code))"`,
          },
          cwd,
          env,
          timeoutMs: 15_000,
          sandbox,
        });
        expect(result).toMatchObject({ outcome: 'exited', exitCode: 0 });
        expect(result.output).toContain('Read-only file system');
        expect(result.output).toMatch(/offline (ECONNREFUSED|ENETUNREACH)/);
        expect(result.output).not.toContain('REACHED');
        expect(readFileSync(join(cwd, 'out.txt'), 'utf8')).toBe('built\n');
        expect(existsSync(join(outside, 'planted.txt'))).toBe(false);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('reports a command missing inside the sandbox as one that cannot start', async () => {
      const { cwd, sandbox } = sandboxed(true);
      const result = await runGateCommand({
        command: { argv: ['/snodo/no-such-test-runner'] },
        cwd,
        env,
        timeoutMs: 10_000,
        sandbox,
      });
      expect(result).toMatchObject({
        outcome: 'spawn-failed',
        spawnError: 'command not found: /snodo/no-such-test-runner (inside the sandbox)',
      });
    });
  },
);
