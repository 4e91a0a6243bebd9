import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMockCoder } from '@snodo/coder-mock';
import { type FakeLlm, startFakeLlm } from '@snodo/conformance/fake-llm';
import { jobPaths, readJobState, runTask } from '@snodo/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createClaudeCodeCoder } from './claude-code-adapter.js';

// Tier 2: the real Claude Code from npm (the pinned devDependency, or SNODO_COMPAT_CLAUDE_CODE_BINARY to
// check another install) against the fake LLM on 127.0.0.1, driven through core's runTask as
// `snodo run --coder claude-code` drives it. Slow (a few seconds of a real CLI), so opt-in.
const live = process.env.SNODO_COMPAT_LIVE === '1';
const packageDirectory = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The protocol: one mode on Claude Code, pointed at the fake, and one LLM judge after the change. */
function protocol(baseUrl: string): string {
  return `protocol_id: live
name: Claude Code live check
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    instructions: Keep changes small. Live-check marker 5d1c.
    coder: claude-code
    coder_config:
      base_url: ${JSON.stringify(baseUrl)}
      model: claude-sonnet-4-5
    tools: [edit]
    validators: [security]
validators:
  - validator_id: security
    validator_type: security
    evaluation_phase: post_execute
    criteria: [No credentials are added.]
disagreement_policy: unanimous
execution:
  max_fix_attempts: 0
`;
}

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe.skipIf(!live)('Claude Code, live against the fake LLM (set SNODO_COMPAT_LIVE=1)', () => {
  it('[slow] snodo run --coder claude-code makes the scripted edit, merges it, records usage and transcript', async () => {
    const fake: FakeLlm = await startFakeLlm({
      script: [
        {
          writeFile: { path: 'src/greeting.txt', content: 'hello from claude code\n' },
          text: 'Writing the greeting.',
          usage: { input: 1200, output: 60, cached: 800, cacheWrite: 300 },
        },
        { text: 'Created src/greeting.txt.', usage: { input: 1500, output: 25, cached: 1100 } },
      ],
    });
    const directory = mkdtempSync(path.join(os.tmpdir(), 'snodo-live-claude-code-'));
    cleanup = async () => {
      await fake.close();
      rmSync(directory, { recursive: true, force: true });
    };
    const root = path.join(directory, 'repository');
    const home = path.join(directory, 'home');
    const snodoHome = path.join(directory, 'snodo-home');
    mkdirSync(root);
    mkdirSync(home);
    mkdirSync(snodoHome, { mode: 0o700 });
    writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = Live Test\n\temail = live@example.com\n');
    const env = {
      PATH: `${path.join(packageDirectory, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}`,
      HOME: home,
      SNODO_HOME: snodoHome,
      GIT_CONFIG_NOSYSTEM: '1',
      LANG: 'C.UTF-8',
      ANTHROPIC_API_KEY: 'sk-ant-live-check-0123456789',
      // Must not reach Claude Code: only the coder's own base_url may point it somewhere.
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/inherited',
      CLAUDECODE: '1',
    };
    const git = (args: readonly string[]) =>
      execFileSync('git', args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    git(['init', '-q', '-b', 'trunk']);
    writeFileSync(path.join(root, 'README.md'), '# live\n');
    mkdirSync(path.join(root, '.snodo'));
    writeFileSync(path.join(root, '.snodo', 'protocol.yml'), protocol(fake.baseUrl.anthropic));
    git(['add', '-A']);
    git(['commit', '-q', '-m', 'initial']);
    const binary =
      process.env.SNODO_COMPAT_CLAUDE_CODE_BINARY ??
      path.join(packageDirectory, 'node_modules', '.bin', 'claude');
    writeFileSync(
      path.join(snodoHome, 'config.yml'),
      `coders:\n  claude-code:\n    binary: ${JSON.stringify(binary)}\n`,
    );
    const version = /\d+\.\d+\.\d+/.exec(
      execFileSync(binary, ['--version'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    )?.[0];

    const handle = runTask({
      task: 'Add src/greeting.txt with a greeting',
      cwd: root,
      env,
      homeDirectory: home,
      actor: 'live-test',
      coder: 'claude-code',
      model: 'mock/pass',
      coders: {
        registrations: [
          { id: 'mock', displayName: 'Mock coder', kind: 'engine-managed', load: () => createMockCoder() },
          {
            id: 'claude-code',
            displayName: 'Claude Code',
            kind: 'in-place',
            modelPrefix: 'claude-code/',
            load: () => createClaudeCodeCoder(),
          },
        ],
        defaultCoderId: 'mock',
        mockCoderId: 'mock',
      },
    });
    for await (const _event of handle.events) {
      // Drained so the run is not held up by back-pressure.
    }
    const result = await handle.result;

    expect(result, JSON.stringify(result.error)).toMatchObject({ status: 'done', outcome: 'merged' });
    expect(git(['show', 'trunk:src/greeting.txt'])).toBe('hello from claude code\n');
    expect(git(['log', '-1', '--format=%B', 'trunk'])).toContain(`Snodo-Coder: claude-code@${version}`);
    expect(fake.problems).toEqual([]);
    const main = fake.mainRequests();
    expect(main.length).toBeGreaterThanOrEqual(2);
    expect(main.every((request) => request.hasCredentials && request.model === 'claude-sonnet-4-5')).toBe(
      true,
    );
    // The mode's instructions reached the model through CLAUDE.local.md.
    expect(fake.requestsContaining('Live-check marker 5d1c').length).toBeGreaterThan(0);

    const state = readJobState(root, result.jobId);
    expect(state.usage.coder).toMatchObject({
      inputTokens: 800,
      outputTokens: 85,
      cachedInputTokens: 1900,
      source: 'reported',
    });
    expect(state.usage.coder?.costUsd).toBeGreaterThan(0);
    const transcript = jobPaths(root, result.jobId).transcript;
    expect(statSync(transcript).size).toBeGreaterThan(0);
    const text = readFileSync(transcript, 'utf8');
    expect(text).toContain('"type":"result"');
    expect(text).not.toContain('sk-ant-live-check-0123456789');
  }, 180_000);
});
