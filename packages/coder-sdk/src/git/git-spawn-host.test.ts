import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolateGitConfiguration } from '../testing/temporary-repository.js';
import { gitSpawnHost, gitSpawnHostProcessId, ReplyReader } from './git-spawn-host.js';
import { runGit } from './run-git.js';

let root: string;

async function hostReady(): Promise<void> {
  for (let waited = 0; gitSpawnHost() === undefined; waited += 20) {
    if (waited > 20_000) throw new Error('the git spawn host did not become ready in 20 s');
    await sleep(20);
  }
}

beforeAll(async () => {
  isolateGitConfiguration();
  root = mkdtempSync(path.join(os.tmpdir(), 'snodo-spawn-host-'));
  execFileSync('git', ['init', '-q', '-b', 'main', root]);
  await hostReady();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the git spawn host', () => {
  it('returns what git wrote byte for byte: NUL-separated lists, stdin, exit codes, stderr, a 3 MB blob', async () => {
    writeFileSync(path.join(root, 'a b.txt'), 'a\n');
    writeFileSync(path.join(root, 'ü.txt'), 'ü\n');
    await runGit(['add', '--all'], { cwd: root });
    const listed = await runGit(['ls-files', '-z'], { cwd: root });
    expect(listed.stdout).toBe('a b.txt\0ü.txt\0');

    const big = `${'0123456789abcdef'.repeat(64)}\n`.repeat(3 * 1024);
    const { stdout: blob } = await runGit(['hash-object', '-w', '--stdin'], { cwd: root, input: big });
    const read = await runGit(['cat-file', 'blob', blob.trim()], { cwd: root });
    expect(read.stdout.length).toBe(big.length);
    expect(read.stdout).toBe(big);

    const unset = await runGit(['config', '--get', 'user.nickname'], { cwd: root, allowedExitCodes: [1] });
    expect(unset.exitCode).toBe(1);
    await expect(runGit(['rev-parse', '--verify', 'nope'], { cwd: root })).rejects.toMatchObject({
      exitCode: 128,
      stderr: expect.stringContaining('fatal'),
    });
    await expect(runGit(['status'], { cwd: path.join(root, 'no-such-directory') })).rejects.toMatchObject({
      exitCode: undefined,
    });
  });

  it('keeps fifty commands at once apart: each gets its own answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        runGit(['hash-object', '--stdin'], { cwd: root, input: `object ${index}\n` }),
      ),
    );
    const expected = Array.from({ length: 50 }, (_, index) =>
      execFileSync('git', ['hash-object', '--stdin'], { cwd: root, input: `object ${index}\n` }).toString(),
    );
    expect(answers.map((answer) => answer.stdout)).toEqual(expected);
  });

  it('outlives a SIGINT or SIGTERM of its process group: snodo decides when it stops', async () => {
    const pid = gitSpawnHostProcessId() as number;
    process.kill(pid, 'SIGINT');
    process.kill(pid, 'SIGTERM');
    await sleep(200);
    expect(gitSpawnHostProcessId()).toBe(pid);
    expect((await runGit(['rev-parse', '--git-dir'], { cwd: root })).stdout.trim()).toBe('.git');
  });

  it('a host that dies mid-command fails that command, saying so, and the next one runs', async () => {
    const pid = gitSpawnHostProcessId();
    expect(pid).toBeGreaterThan(0);
    const napping = runGit(['-c', 'alias.nap=!sleep 2', 'nap'], { cwd: root }).catch(
      (error: unknown) => error,
    );
    await sleep(300);
    process.kill(pid as number, 'SIGKILL');
    const failed = await napping;
    expect(failed).toMatchObject({ exitCode: undefined });
    expect(String((failed as Error).message)).toContain('git spawn host');
    // Spawned from here until a new host is ready, then through it.
    expect((await runGit(['rev-parse', '--git-dir'], { cwd: root })).stdout.trim()).toBe('.git');
    await hostReady();
    expect(gitSpawnHostProcessId()).not.toBe(pid);
    expect((await runGit(['rev-parse', '--git-dir'], { cwd: root })).stdout.trim()).toBe('.git');
  });

  it('never keeps a program alive: one that ran git through the host exits when its work is done', async () => {
    const runner = path.join(import.meta.dirname, 'git-spawn-host.ts');
    const script = `
      const { gitSpawnHost } = await import(${JSON.stringify(runner)});
      const { runGit } = await import(${JSON.stringify(path.join(import.meta.dirname, 'run-git.ts'))});
      while (gitSpawnHost() === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      const { stdout } = await runGit(['rev-parse', '--git-dir'], { cwd: ${JSON.stringify(root)} });
      process.stdout.write(stdout.trim());
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const code = await Promise.race([
      new Promise((resolve) => child.once('exit', resolve)),
      sleep(20_000).then(() => 'still running after 20 s'),
    ]);
    child.kill('SIGKILL');
    expect({ code, output }).toEqual({ code: 0, output: '.git' });
  });

  it('reads replies cut anywhere: a header split across chunks, a UTF-8 character split, two in one chunk', () => {
    const frame = (id: number, stdout: string, stderr: string) => {
      const out = Buffer.from(stdout);
      const err = Buffer.from(stderr);
      return Buffer.concat([
        Buffer.from(`${JSON.stringify({ id, code: 0, out: out.length, err: err.length })}\n`),
        out,
        err,
      ]);
    };
    const wire = Buffer.concat([
      frame(1, 'ü\0ß\n', 'warn'),
      frame(2, '', ''),
      frame(3, '€'.repeat(1000), ''),
    ]);
    const replies: string[] = [];
    let garbled = 0;
    const byteAtATime = new ReplyReader(
      (header, stdout, stderr) => replies.push(`${header.id}:${stdout.toString()}|${stderr.toString()}`),
      () => {
        garbled += 1;
      },
    );
    for (const byte of wire) byteAtATime.push(Buffer.from([byte]));
    const whole: string[] = [];
    new ReplyReader(
      (header, stdout, stderr) => whole.push(`${header.id}:${stdout.toString()}|${stderr.toString()}`),
      () => {},
    ).push(wire);
    const expected = ['1:ü\0ß\n|warn', '2:|', `3:${'€'.repeat(1000)}|`];
    expect(replies).toEqual(expected);
    expect(whole).toEqual(expected);
    expect(garbled).toBe(0);

    // Something else printing on the host's stdout is not taken for a reply.
    const noise = new ReplyReader(
      () => replies.push('taken'),
      () => {
        garbled += 1;
      },
    );
    noise.push(Buffer.from('Usage: snodo [options]\n'));
    expect(garbled).toBe(1);
    expect(replies).toHaveLength(3);
  });
});
