import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runSupervisedProcess } from '../process/run-supervised-process.js';
import type { SupervisedProcessOptions } from '../process/supervised-process.js';
import { createSandboxLayout, type SandboxLayout } from '../testing/sandbox-layout.js';
import type { CoderV1Sandbox } from '../v1/coder-v1-sandbox.js';
import { probeSandbox } from './probe-sandbox.js';
import { wrapInSandbox } from './wrap-in-sandbox.js';

const probe = await probeSandbox();
const title = probe.available
  ? 'a sandboxed process (real bubblewrap)'
  : `a sandboxed process (skipped: ${probe.reason})`;

let layout: SandboxLayout;
beforeEach(() => {
  layout = createSandboxLayout(probe.available ? probe.executable : '/usr/bin/bwrap');
});
afterEach(() => layout.cleanup());

/** The processes on the host whose command line contains `marker` (their pids as the host sees them). */
function hostProcessesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (commandLine.includes(marker)) found.push(Number(entry));
    } catch {
      // Gone.
    }
  }
  return found;
}

/** Runs `script` with sh inside `sandbox`, the workspace as working directory; collects the output. */
async function inSandbox(
  script: string,
  sandbox: CoderV1Sandbox = layout.sandbox(),
  extra: Partial<SupervisedProcessOptions> = {},
) {
  let stdout = '';
  let stderr = '';
  const outcome = await runSupervisedProcess({
    file: '/bin/sh',
    args: ['-c', script],
    cwd: layout.workspace,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    sandbox,
    killGraceMs: 300,
    timeoutMs: 20_000,
    onOutput: (stream, chunk) => {
      if (stream === 'stdout') stdout += chunk.toString('utf8');
      else stderr += chunk.toString('utf8');
    },
    ...extra,
  });
  return { outcome, stdout, stderr };
}

describe.skipIf(!probe.available)(title, () => {
  it('can write its workspace and nothing outside it (EROFS)', async () => {
    const outsideFile = path.join(layout.outside, 'planted.txt');
    const run = await inSandbox(`echo ok > result.txt; echo evil > '${outsideFile}'; echo "exit $?"`);
    expect(readFileSync(path.join(layout.workspace, 'result.txt'), 'utf8')).toBe('ok\n');
    expect(run.stderr).toContain('Read-only file system');
    expect(run.stdout).toContain('exit 2');
    expect(existsSync(outsideFile)).toBe(false);
  });

  it('sees a hidden directory as empty and read-only, and cannot read the secret in it', async () => {
    const run = await inSandbox(
      `ls -A '${layout.userHome}'; cat '${layout.userHome}/secret.txt'; echo x > '${layout.userHome}/.gitconfig'; echo done`,
    );
    expect(run.stdout).toBe('done\n');
    expect(run.stdout + run.stderr).not.toContain('the signing key');
    expect(run.stderr).toContain('Read-only file system');
    expect(existsSync(path.join(layout.userHome, '.gitconfig'))).toBe(false);
  });

  it('cannot write a read-only directory inside its writable workspace', async () => {
    const run = await inSandbox(`echo x > vendor/lib.txt; echo x > vendor/new.txt; echo ok > mine.txt`);
    expect(run.stderr).toContain('Read-only file system');
    expect(readFileSync(path.join(layout.readOnlyInWorkspace, 'lib.txt'), 'utf8')).toBe('vendored\n');
    expect(existsSync(path.join(layout.readOnlyInWorkspace, 'new.txt'))).toBe(false);
    expect(existsSync(path.join(layout.workspace, 'mine.txt'))).toBe(true);
  });

  it('cannot remount anything writable, even as root, and has no capabilities', async () => {
    const outsideFile = path.join(layout.outside, 'after-remount.txt');
    const run = await inSandbox(
      `mount -o remount,rw,bind / 2>&1; mount -o remount,rw '${layout.outside}' 2>&1
       echo evil > '${outsideFile}'; grep CapEff /proc/self/status`,
    );
    expect(run.stdout).toMatch(/CapEff:\s+0000000000000000/);
    expect(existsSync(outsideFile)).toBe(false);
  });

  it('takes a setsid grandchild that scrubbed its environment with it when the command exits', async () => {
    const marker = `3000.${process.pid}${Date.now() % 100_000}`;
    // Exits only once the grandchild left the group (sleep, leading its own group), so the group kill cannot
    // be what ends it.
    const run = await inSandbox(
      `left() { set -- $(cat /proc/$1/stat 2>/dev/null) ; [ "$2" = "(sleep)" ] && [ "$5" = "$1" ]; }
       env -i setsid sleep ${marker} >/dev/null 2>&1 & child=$!
       until left $child; do sleep 0.02; done; echo started`,
    );
    expect(run.stdout).toBe('started\n');
    // No tag to find it by: only the PID namespace can have ended it.
    expect(run.outcome.orphansKilled).toBe(0);
    const until = Date.now() + 3000;
    while (hostProcessesWith(`sleep ${marker}`).length > 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(hostProcessesWith(`sleep ${marker}`)).toEqual([]);
  });

  it('kills a hung sandboxed process, and everything in it, at the wall-clock limit', async () => {
    const marker = `3001.${process.pid}${Date.now() % 100_000}`;
    const run = await inSandbox(`trap '' TERM; sleep ${marker} & wait`, layout.sandbox(), { timeoutMs: 500 });
    expect(run.outcome.stoppedBy).toBe('wall-clock');
    const until = Date.now() + 3000;
    while (hostProcessesWith(`sleep ${marker}`).length > 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(hostProcessesWith(`sleep ${marker}`)).toEqual([]);
  }, 15_000);

  it('gets the private HOME and TMPDIR, writable, instead of the hidden ones', async () => {
    const run = await inSandbox(
      'echo "$HOME|$TMPDIR"; touch "$HOME/h" "$TMPDIR/t" && echo wrote',
      layout.sandbox(),
      {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: layout.userHome, TMPDIR: '/tmp' },
      },
    );
    expect(run.stdout).toBe(`${layout.privateHome}|${layout.privateTmp}\nwrote\n`);
    expect(existsSync(path.join(layout.privateHome, 'h'))).toBe(true);
    expect(existsSync(path.join(layout.privateTmp, 't'))).toBe(true);
  });

  it('reports bubblewrap’s own error for a command the sandbox hides', async () => {
    const hiddenProgram = path.join(layout.userHome, 'secret.txt');
    let stderr = '';
    const outcome = await runSupervisedProcess({
      file: hiddenProgram,
      args: [],
      cwd: layout.workspace,
      env: {},
      sandbox: layout.sandbox(),
      onOutput: (_stream, chunk) => {
        stderr += chunk.toString('utf8');
      },
    });
    expect(outcome.exitCode).toBe(1);
    expect(outcome.sandboxFailure).toMatch(/^bwrap: execvp .*secret\.txt: No such file or directory/);
    expect(stderr).toContain('bwrap: execvp');
  });

  describe('network', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer((_request, response) => response.end('hello from the host\n'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const fetchScript = () =>
      `'${process.execPath}' -e "fetch('${url}').then(async (r) => console.log('got', await r.text()), (e) => console.log('failed', e.cause?.code ?? e.message))"`;

    it('network: false refuses a connection to a server on the host’s loopback', async () => {
      const run = await inSandbox(fetchScript(), layout.sandbox({ network: false }));
      expect(run.stdout).toMatch(/^failed (ECONNREFUSED|ENETUNREACH)/);
    });

    it('network: true reaches it', async () => {
      const run = await inSandbox(fetchScript(), layout.sandbox({ network: true }));
      expect(run.stdout).toBe('got hello from the host\n\n');
    });
  });

  const canDropToNobody =
    process.getuid?.() === 0 && spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!canDropToNobody)(
    'works the same for an unprivileged user (skipped unless root with setpriv)',
    () => {
      for (const directory of [layout.root, path.dirname(layout.privateHome)]) chmodSync(directory, 0o755);
      for (const directory of [layout.workspace, layout.privateHome, layout.privateTmp])
        chmodSync(directory, 0o777);
      const outsideFile = path.join(layout.outside, 'nobody.txt');
      chmodSync(layout.outside, 0o777);
      const wrapped = wrapInSandbox(layout.sandbox(), {
        file: '/bin/sh',
        args: [
          '-c',
          `id -u; echo ok > by-nobody.txt; echo evil > '${outsideFile}'; ls -A '${layout.userHome}'`,
        ],
        cwd: layout.workspace,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      });
      const result = spawnSync(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', wrapped.file, ...wrapped.args],
        { env: wrapped.env, encoding: 'utf8', cwd: '/' },
      );
      expect(result.stdout).toBe('65534\n');
      expect(result.stderr).toContain('Read-only file system');
      expect(existsSync(path.join(layout.workspace, 'by-nobody.txt'))).toBe(true);
      expect(existsSync(outsideFile)).toBe(false);
    },
  );
});
