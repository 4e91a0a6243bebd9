import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CoderFailedError } from '../errors/coder-failed-error.js';
import { CoderUnavailableError } from '../errors/coder-unavailable-error.js';
import { probeSandbox } from '../sandbox/probe-sandbox.js';
import { writeFakeCli } from '../testing/fake-cli.js';
import { FakeCoder, makeRequest } from '../testing/fake-coder.js';
import {
  createTemporaryRepository,
  isolateGitConfiguration,
  type TemporaryRepository,
} from '../testing/temporary-repository.js';
import type { CoderV1Sandbox } from '../v1/coder-v1-sandbox.js';

const probe = await probeSandbox();

let repository: TemporaryRepository;
let privateTmp: string;
beforeAll(() => isolateGitConfiguration());
beforeEach(() => {
  repository = createTemporaryRepository();
  privateTmp = path.join(repository.root, 'job-tmp');
  mkdirSync(privateTmp);
});
afterEach(() => repository.cleanup());

/** The sandbox core would build for the temporary repository: the main checkout hidden. */
function sandboxFor(overrides: Partial<CoderV1Sandbox> = {}): CoderV1Sandbox {
  return {
    kind: 'bubblewrap',
    executable: probe.available ? probe.executable : '/usr/bin/bwrap',
    mounts: [
      { type: 'hide', path: repository.main },
      { type: 'read-write', path: repository.workspace },
      { type: 'read-write', path: repository.home },
      { type: 'read-write', path: privateTmp },
      { type: 'read-write', path: repository.evidence },
    ],
    network: true,
    environment: { HOME: repository.home, TMPDIR: privateTmp },
    ...overrides,
  };
}

const title = probe.available
  ? 'SubprocessCoderAdapter inside a sandbox (real bubblewrap)'
  : `SubprocessCoderAdapter inside a sandbox (skipped: ${probe.reason})`;

describe.skipIf(!probe.available)(title, () => {
  it('runs the CLI with its private HOME and TMPDIR, the main checkout hidden, and reports its tag', async () => {
    const evidence = path.join(repository.evidence, 'seen.json');
    const protocol = path.join(repository.main, '.snodo', 'protocol.yml');
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `let read = 'read';
       try { fs.readFileSync(${JSON.stringify(protocol)}, 'utf8'); } catch (error) { read = error.code; }
       let wrote = 'wrote';
       try { fs.writeFileSync(${JSON.stringify(path.join(repository.root, 'planted.txt'))}, 'x'); } catch (error) { wrote = error.code; }
       fs.writeFileSync(${JSON.stringify(evidence)}, JSON.stringify({ home: process.env.HOME, tmp: process.env.TMPDIR, read, wrote }));
       fs.writeFileSync(path.join(process.env.TMPDIR, 'scratch'), 'x');
       fs.appendFileSync('src/app.txt', 'from the sandbox\\n');`,
    );
    const request = makeRequest(repository, { sandbox: sandboxFor() });

    const result = await new FakeCoder().doRun(request);

    expect(result.status).toBe('changed');
    expect(JSON.parse(readFileSync(evidence, 'utf8'))).toEqual({
      home: repository.home,
      tmp: privateTmp,
      read: 'ENOENT',
      wrote: 'EROFS',
    });
    expect(existsSync(path.join(privateTmp, 'scratch'))).toBe(true);
    expect(existsSync(path.join(repository.root, 'planted.txt'))).toBe(false);
    const started = request.events.find((event) => event.type === 'coder-process');
    expect(started).toMatchObject({ type: 'coder-process', tag: expect.stringMatching(/^[0-9a-f]{32}$/) });
  });

  it('keeps 100 MB of output through the sandbox within the transcript cap, and the run ends', async () => {
    const capBytes = 1024 * 1024;
    writeFakeCli(
      repository.binDirectory,
      'fake-coder',
      `const block = ('x'.repeat(1023) + '\\n').repeat(64);
       let written = 0;
       function pump() {
         while (written < 100 * 1024 * 1024) {
           written += block.length;
           if (!process.stdout.write(block)) { process.stdout.once('drain', pump); return; }
         }
         fs.writeFileSync('done.txt', 'flooded\\n');
       }
       pump();`,
    );
    const request = makeRequest(repository, { timeoutMs: 60_000, sandbox: sandboxFor() });

    const result = await new FakeCoder({ transcriptCapBytes: capBytes }).doRun(request);

    expect(result.status).toBe('changed');
    expect(repository.read('done.txt')).toBe('flooded\n');
    const size = statSync(request.transcriptPath).size;
    expect(size).toBeGreaterThan(capBytes);
    expect(size).toBeLessThan(capBytes + 4096);
    expect(readFileSync(request.transcriptPath, 'utf8')).toContain('[snodo: transcript truncated');
  }, 60_000);

  it('refuses a CLI that lies under a hidden directory before anything is written', async () => {
    const hiddenBin = path.join(repository.root, 'user-home', '.local', 'bin');
    mkdirSync(hiddenBin, { recursive: true });
    writeFakeCli(hiddenBin, 'fake-coder', `fs.appendFileSync('src/app.txt', 'x\\n');`);
    const request = makeRequest(repository, {
      sandbox: sandboxFor({
        mounts: [...sandboxFor().mounts, { type: 'hide', path: path.join(repository.root, 'user-home') }],
      }),
      coderConfig: { binary: path.join(hiddenBin, 'fake-coder') },
    });

    const error = await new FakeCoder().doRun(request).catch((caught: unknown) => caught);

    expect(CoderUnavailableError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`lies under ${path.join(repository.root, 'user-home')}`);
    expect(existsSync(request.transcriptPath)).toBe(false);
    expect(repository.read('src/app.txt')).toBe('first line\n');
  });
});

describe('SubprocessCoderAdapter with a sandbox that cannot start', () => {
  it('says the sandbox could not start, not that the CLI is missing', async () => {
    writeFakeCli(repository.binDirectory, 'fake-coder', `fs.appendFileSync('src/app.txt', 'x\\n');`);
    const missing = path.join(repository.root, 'no-bwrap', 'bwrap');
    const request = makeRequest(repository, { sandbox: sandboxFor({ executable: missing }) });

    const error = await new FakeCoder().doRun(request).catch((caught: unknown) => caught);

    expect(CoderFailedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`could not start its sandbox: bubblewrap at ${missing}`);
    expect(repository.read('src/app.txt')).toBe('first line\n');
  });
});
