import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCheckpoints, verifyAuditLog } from '@snodo/audit';
import { createMockCoder } from '@snodo/coder-mock';
import type { CoderAdapterV1 } from '@snodo/coder-sdk';
import { auditLogPath, repositoryCheckpointStorePath, signingKeyDirectory } from '../audit-trail/index.js';
import type { CoderRegistration } from '../coders/index.js';
import type { RunEvent } from '../pipeline/run-event.js';
import { runTask } from '../pipeline/run-task.js';
import type { RunTaskOptions } from '../pipeline/run-task-options.js';
import type { RunTaskResult } from '../pipeline/run-task-result.js';

// Test support only: a real repository with a protocol, a private $SNODO_HOME, and runTask wired to the
// mock coder plus any extra coders a test registers.

/** A protocol small enough to read in a test: one judge before, one judge and one command gate after. */
export const testProtocol = `protocol_id: test
name: Test protocol
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit, dispatch]
    validators: [task-review, security, tests]
validators:
  - validator_id: task-review
    validator_type: planning
    evaluation_phase: pre_execute
    criteria: [The task is clear.]
  - validator_id: security
    validator_type: security
    evaluation_phase: post_execute
    criteria: [No credentials are added.]
  - validator_id: tests
    validator_type: quality
    evaluation_phase: post_execute
    tooling:
      test_command: [node, -e, "process.exit(0)"]
disagreement_policy: unanimous
global_constraints:
  - constraint_id: no-secrets
    description: No credentials in added lines.
    predicate: no_secrets_in_diff
execution:
  max_fix_attempts: 1
`;

export interface PipelineFixture {
  readonly root: string;
  readonly snodoHome: string;
  readonly env: Record<string, string>;
  git(args: readonly string[], cwd?: string): string;
  write(relativePath: string, content: string): void;
  commitAll(message: string): string;
  run(options: Partial<RunTaskOptions> & { task: string; extraCoders?: CoderRegistration[] }): Promise<{
    result: RunTaskResult;
    events: RunEvent[];
  }>;
  verifyAudit(): Promise<Awaited<ReturnType<typeof verifyAuditLog>>>;
  cleanup(): void;
}

export const mockRegistration: CoderRegistration = {
  id: 'mock',
  displayName: 'Mock coder',
  kind: 'engine-managed',
  load: () => createMockCoder(),
};

/** Registers a ready-made adapter (e.g. the SDK's MockCoderAdapterV1) under its id. */
export function registrationFor(adapter: CoderAdapterV1): CoderRegistration {
  return { id: adapter.id, displayName: adapter.displayName, kind: adapter.kind, load: () => adapter };
}

export function createPipelineFixture(
  options: { protocol?: string; branch?: string; config?: string } = {},
): PipelineFixture {
  const directory = mkdtempSync(join(tmpdir(), 'snodo-pipeline-'));
  const root = join(directory, 'repository');
  const snodoHome = join(directory, 'snodo-home');
  const home = join(directory, 'home');
  mkdirSync(root);
  mkdirSync(home);
  mkdirSync(snodoHome, { mode: 0o700 });
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Test User\n\temail = test@example.com\n');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    SNODO_HOME: snodoHome,
    GIT_CONFIG_NOSYSTEM: '1',
    LANG: 'C.UTF-8',
  };
  const gitEnv = { ...env, GIT_CONFIG_GLOBAL: join(home, '.gitconfig') };
  const git = (args: readonly string[], cwd = root) =>
    execFileSync('git', args, {
      cwd,
      env: gitEnv,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  git(['init', '--quiet', '--initial-branch', options.branch ?? 'trunk']);
  const write = (relativePath: string, content: string) => {
    mkdirSync(join(root, relativePath, '..'), { recursive: true });
    writeFileSync(join(root, relativePath), content);
  };
  const commitAll = (message: string) => {
    git(['add', '--all']);
    git(['commit', '--quiet', '-m', message]);
    return git(['rev-parse', 'HEAD']);
  };
  write('README.md', '# sample\n');
  write('.snodo/protocol.yml', options.protocol ?? testProtocol);
  commitAll('initial');
  if (options.config) writeFileSync(join(snodoHome, 'config.yml'), options.config, { mode: 0o600 });

  return {
    root,
    snodoHome,
    env,
    git,
    write,
    commitAll,
    async run(runOptions) {
      const { extraCoders, ...rest } = runOptions;
      const handle = runTask({
        cwd: root,
        env,
        homeDirectory: home,
        actor: 'tester',
        coders: {
          registrations: [mockRegistration, ...(extraCoders ?? [])],
          defaultCoderId: 'mock',
          mockCoderId: 'mock',
        },
        ...rest,
      });
      const events: RunEvent[] = [];
      const collecting = (async () => {
        for await (const event of handle.events) events.push(event);
      })();
      const result = await handle.result;
      await collecting;
      return { result, events };
    },
    async verifyAudit() {
      const logPath = auditLogPath(root);
      const firstLine = execFileSync('head', ['-n', '1', logPath], { encoding: 'utf8' });
      const logId = (JSON.parse(firstLine) as { data: { log_id: string } }).data.log_id;
      const checkpoints = readCheckpoints(
        repositoryCheckpointStorePath(snodoHome, join(root, '.git'), logId),
      );
      // A verification against no checkpoint at all would prove nothing about the tail.
      if (checkpoints.length === 0) throw new Error(`no checkpoint of log ${logId} in ${snodoHome}`);
      return verifyAuditLog(logPath, {
        checkpoints,
        publicKey: join(signingKeyDirectory(snodoHome), 'audit-signing-key.pub.pem'),
      });
    },
    cleanup() {
      for (const worktree of git(['worktree', 'list', '--porcelain'])
        .split('\n')
        .filter((line) => line.startsWith('worktree '))
        .map((line) => line.slice(9))
        .filter((path) => path !== root)) {
        rmSync(worktree, { recursive: true, force: true });
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
