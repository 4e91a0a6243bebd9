import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CoderFailedError } from '../errors/coder-failed-error.js';
import { CoderTimeoutError } from '../errors/coder-timeout-error.js';
import { CoderAbortedError } from '../errors.js';
import { writeFakeCli } from '../testing/fake-cli.js';
import { FakeCoder, makeRequest } from '../testing/fake-coder.js';
import { waitUntilGone } from '../testing/process-liveness.js';
import {
  createTemporaryRepository,
  isolateGitConfiguration,
  type TemporaryRepository,
} from '../testing/temporary-repository.js';

let repository: TemporaryRepository;

beforeAll(() => isolateGitConfiguration());
beforeEach(() => {
  repository = createTemporaryRepository();
});
afterEach(() => repository.cleanup());

const fastSettings = { killGraceMs: 300 };

/** A fake CLI body that records its own pid and a grandchild `sleep`'s pid, then runs `rest`. */
function withGrandchild(pidFile: string, rest: string, stdio: 'ignore' | 'inherit' = 'ignore'): string {
  return `const sleeper = childProcess.spawn('sleep', ['1000'], { stdio: '${stdio}' });
    fs.writeFileSync(${JSON.stringify(pidFile)}, JSON.stringify({ self: process.pid, grandchild: sleeper.pid }));
    ${rest}`;
}

function readPids(pidFile: string): { self: number; grandchild: number } {
  return JSON.parse(readFileSync(pidFile, 'utf8')) as { self: number; grandchild: number };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('SubprocessCoderAdapter supervises the process', () => {
  it('stops a hung CLI at the wall-clock limit and kills its whole process group', async () => {
    const pidFile = path.join(repository.evidence, 'pids.json');
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      withGrandchild(pidFile, `setInterval(() => process.stdout.write('.'), 100);`),
    );

    const error = await failure(
      new FakeCoder(fastSettings).doRun(makeRequest(repository, { timeoutMs: 1500 })),
    );

    expect(CoderTimeoutError.isInstance(error)).toBe(true);
    expect((error as CoderTimeoutError).limit).toBe('wall-clock');
    expect((error as CoderTimeoutError).timeoutMs).toBe(1500);
    const pids = readPids(pidFile);
    expect(await waitUntilGone(pids.self)).toBe(true);
    expect(await waitUntilGone(pids.grandchild)).toBe(true);
  }, 15_000);

  it('stops a silent CLI at the idle limit and says so', async () => {
    const pidFile = path.join(repository.evidence, 'pids.json');
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      withGrandchild(pidFile, `setInterval(() => {}, 1000);`),
    );

    const error = await failure(
      new FakeCoder(fastSettings).doRun(makeRequest(repository, { timeoutMs: 60_000, idleTimeoutMs: 800 })),
    );

    expect(CoderTimeoutError.isInstance(error)).toBe(true);
    expect((error as CoderTimeoutError).limit).toBe('idle');
    expect(await waitUntilGone(readPids(pidFile).grandchild)).toBe(true);
  }, 15_000);

  it('kills a CLI that ignores SIGTERM after the grace period', async () => {
    const pidFile = path.join(repository.evidence, 'pids.json');
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      withGrandchild(
        pidFile,
        `process.on('SIGTERM', () => process.stdout.write('ignoring SIGTERM\\n'));
         setInterval(() => {}, 1000);`,
      ),
    );
    const request = makeRequest(repository, { timeoutMs: 1000 });

    const error = await failure(new FakeCoder(fastSettings).doRun(request));

    expect(CoderTimeoutError.isInstance(error)).toBe(true);
    expect(readFileSync(request.transcriptPath, 'utf8')).toContain('ignoring SIGTERM');
    expect(readFileSync(request.transcriptPath, 'utf8')).toContain(
      'signal SIGKILL, stopped by snodo (wall-clock)',
    );
    expect(await waitUntilGone(readPids(pidFile).self)).toBe(true);
  }, 15_000);

  it('stops promptly on abort with CODER_ABORTED', async () => {
    const pidFile = path.join(repository.evidence, 'pids.json');
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      withGrandchild(pidFile, `process.stdout.write('ready\\n'); setInterval(() => {}, 1000);`),
    );
    const controller = new AbortController();
    const request = makeRequest(repository, {
      timeoutMs: 60_000,
      abortSignal: controller.signal,
      emit: (event) => {
        if (event.type === 'coder-output' && event.text.includes('ready')) controller.abort();
      },
    });

    const error = await failure(new FakeCoder(fastSettings).doRun(request));

    expect(CoderAbortedError.isInstance(error)).toBe(true);
    expect((error as CoderAbortedError).code).toBe('CODER_ABORTED');
    expect(await waitUntilGone(readPids(pidFile).grandchild)).toBe(true);
  }, 10_000);

  it('reports a non-zero exit as CODER_FAILED with the exit code and the stderr tail', async () => {
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `process.stderr.write('Error: invalid API key\\nrequest id abc\\n'); process.exitCode = 3;`,
    );

    const error = await failure(new FakeCoder().doRun(makeRequest(repository)));

    expect(CoderFailedError.isInstance(error)).toBe(true);
    expect((error as CoderFailedError).exitCode).toBe(3);
    expect((error as CoderFailedError).stderrTail).toBe('Error: invalid API key\nrequest id abc\n');
    expect((error as CoderFailedError).message).toContain('exited with code 3');
    expect((error as CoderFailedError).message).toContain('Error: invalid API key');
  });

  it('kills the group after a normal exit so a grandchild holding the output pipes does not survive', async () => {
    const pidFile = path.join(repository.evidence, 'pids.json');
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      withGrandchild(pidFile, `fs.appendFileSync('src/app.txt', 'x\\n'); process.exit(0);`, 'inherit'),
    );

    const result = await new FakeCoder().doRun(makeRequest(repository));

    expect(result.status).toBe('changed');
    expect(await waitUntilGone(readPids(pidFile).grandchild)).toBe(true);
  });

  it('closes stdin, so a CLI that reads it to EOF completes', async () => {
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `let input = '';
       process.stdin.on('data', (chunk) => { input += chunk; });
       process.stdin.on('end', () => fs.writeFileSync('stdin.txt', 'stdin had ' + input.length + ' bytes\\n'));`,
    );

    const result = await new FakeCoder(fastSettings).doRun(makeRequest(repository, { timeoutMs: 10_000 }));

    expect(result.status).toBe('changed');
    expect(repository.read('stdin.txt')).toBe('stdin had 0 bytes\n');
  }, 15_000);

  it('caps the transcript near the cap with a marker while 50 MB of output flows and the run completes', async () => {
    const capBytes = 1024 * 1024;
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `const line = 'x'.repeat(1023) + '\\n';
       const block = line.repeat(64);
       let written = 0;
       function pump() {
         while (written < 50 * 1024 * 1024) {
           written += block.length;
           if (!process.stdout.write(block)) { process.stdout.once('drain', pump); return; }
         }
         fs.writeFileSync('done.txt', 'flooded\\n');
       }
       pump();`,
    );
    const request = makeRequest(repository, { timeoutMs: 30_000 });

    const result = await new FakeCoder({ transcriptCapBytes: capBytes }).doRun(request);

    expect(result.status).toBe('changed');
    expect(repository.read('done.txt')).toBe('flooded\n');
    const size = statSync(request.transcriptPath).size;
    expect(size).toBeGreaterThan(capBytes);
    expect(size).toBeLessThan(capBytes + 4096);
    expect(readFileSync(request.transcriptPath, 'utf8')).toContain('[snodo: transcript truncated');
    const shown = request.events
      .filter((event) => event.type === 'coder-output')
      .reduce((total, event) => total + event.text.length, 0);
    expect(shown).toBeLessThanOrEqual(capBytes);
  }, 30_000);

  it('appends one header per attempt to the transcript', async () => {
    writeFakeCli(repository.binDirectory, 'fake-coder', `process.stdout.write('working\\n');`);

    await new FakeCoder().doRun(makeRequest(repository));
    await new FakeCoder().doRun(makeRequest(repository, { attempt: 2 }));

    const transcript = readFileSync(path.join(repository.jobDirectory, 'transcript.log'), 'utf8');
    expect(transcript.match(/^=== snodo job j_test1 attempt \d · fake-coder@1\.2\.3 · /gm)).toHaveLength(2);
    expect(transcript).toContain('attempt 2');
    expect(transcript.match(/^working$/gm)).toHaveLength(2);
    expect(existsSync(path.join(repository.workspace, 'transcript.log'))).toBe(false);
  });

  it('stops a CLI that lingers after its final event and keeps the run as a success', async () => {
    const pidFile = path.join(repository.evidence, 'pids.json');
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      withGrandchild(
        pidFile,
        `fs.writeFileSync('done.txt', 'done\\n');
    process.stdout.write(JSON.stringify({ type: 'result', usage: { input: 3, output: 2 } }) + '\\n');
    setInterval(() => {}, 1000);`,
      ),
    );
    class LingeringCoder extends FakeCoder {
      override isFinalEvent(line: string): boolean {
        return line.startsWith('{"type":"result"');
      }
    }
    // Without the final-event stop this run would end at the 20 s idle limit with CODER_TIMEOUT.
    const result = await new LingeringCoder({ ...fastSettings, finalEventGraceMs: 200 }).doRun(
      makeRequest(repository, { timeoutMs: 20_000, idleTimeoutMs: 20_000 }),
    );
    expect(result.status).toBe('changed');
    expect(result.changedFiles).toEqual(['done.txt']);
    expect(readFileSync(result.transcriptPath as string, 'utf8')).toContain(
      "stopped by snodo after the CLI's final event",
    );
    const pids = readPids(pidFile);
    expect(await waitUntilGone(pids.self)).toBe(true);
    expect(await waitUntilGone(pids.grandchild)).toBe(true);
  }, 30_000);
});
