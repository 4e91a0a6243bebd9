import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type CoderV1Sandbox, probeSandbox } from '@snodo/coder-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpencodeCoder } from './opencode-adapter.js';
import { writeFakeOpencode } from './testing/fake-executables.js';
import {
  createTestRepository,
  isolateGitConfiguration,
  makeRequest,
  type TestRepository,
} from './testing/test-repository.js';

const probe = await probeSandbox();

let restoreGit: () => void;
beforeAll(() => {
  restoreGit = isolateGitConfiguration();
});
afterAll(() => restoreGit());

let repository: TestRepository;
afterEach(() => repository?.cleanup());

/** The sandbox core would build: the main checkout hidden except the job's directory, the worktree writable. */
function sandboxFor(evidence: string): CoderV1Sandbox {
  return {
    kind: 'bubblewrap',
    executable: probe.available ? probe.executable : '/usr/bin/bwrap',
    mounts: [
      { type: 'hide', path: repository.main },
      { type: 'read-write', path: repository.jobDirectory },
      { type: 'read-write', path: repository.workspace },
      { type: 'read-write', path: repository.home },
      { type: 'read-write', path: evidence },
    ],
    // The adapter shares the network whatever it is given: snodo must reach the server.
    network: false,
    environment: { HOME: repository.home },
  };
}

const title = probe.available
  ? 'the host runtime inside a sandbox (real bubblewrap)'
  : `the host runtime inside a sandbox (skipped: ${probe.reason})`;

describe.skipIf(!probe.available)(title, { timeout: 30_000 }, () => {
  it('runs the server and its agent in the sandbox: the change lands, the main checkout stays out of reach', async () => {
    repository = createTestRepository();
    const evidence = path.join(repository.root, 'evidence');
    mkdirSync(evidence);
    const processRecord = path.join(evidence, 'server-process.json');
    const agentRecord = path.join(evidence, 'agent.json');
    const protocol = path.join(repository.main, '.snodo', 'protocol.yml');
    const agent = `const fs = require('node:fs');
      fs.writeFileSync('hello.txt', 'hello from a sandboxed agent\\n');
      const tryTo = (action) => { try { action(); return 'done'; } catch (error) { return error.code; } };
      fs.writeFileSync(${JSON.stringify(agentRecord)}, JSON.stringify({
        readProtocol: tryTo(() => fs.readFileSync(${JSON.stringify(protocol)})),
        writeMain: tryTo(() => fs.writeFileSync(${JSON.stringify(path.join(repository.main, 'planted.txt'))}, 'x')),
        pid: process.pid,
      }));`;
    writeFakeOpencode(repository.binDirectory, {
      prompt: { kind: 'agent', command: [process.execPath, '-e', agent] },
      processRecord,
    });
    const coder = createOpencodeCoder({ killGraceMs: 500, pollIntervalMs: 100, startupTimeoutMs: 20_000 });
    const request = makeRequest(repository, { sandbox: sandboxFor(evidence) });

    const result = await coder.doRun(request);

    expect(result.status).toBe('changed');
    expect(repository.read('hello.txt')).toBe('hello from a sandboxed agent\n');
    const seen = JSON.parse(readFileSync(agentRecord, 'utf8')) as Record<string, unknown>;
    expect(seen).toMatchObject({ readProtocol: 'ENOENT', writeMain: 'EROFS' });
    expect(existsSync(path.join(repository.main, 'planted.txt'))).toBe(false);
    // Inside its own PID namespace the server is one of the first processes (bubblewrap is pid 1).
    const server = JSON.parse(readFileSync(processRecord, 'utf8')) as { pid: number };
    expect(server.pid).toBeLessThan(10);
    expect(request.events).toContainEqual(
      expect.objectContaining({ type: 'coder-process', tag: expect.stringMatching(/^[0-9a-f]{32}$/) }),
    );
  });
});
