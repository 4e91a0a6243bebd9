import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMockCoder } from '@snodo/coder-mock';
import { type FakeLlm, startFakeLlm } from '@snodo/conformance/fake-llm';
import { jobPaths, readJobState, runTask } from '@snodo/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createCodexCoder } from './codex-adapter.js';

// Tier 2: the real Codex CLI from npm (the pinned devDependency, or SNODO_COMPAT_CODEX_BINARY to check
// another install) against the fake LLM on 127.0.0.1, driven through core's runTask as
// `snodo run --coder codex` drives it. Slow (a few seconds of a real CLI), so opt-in.
const live = process.env.SNODO_COMPAT_LIVE === '1';
const packageDirectory = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The protocol: one mode on Codex, pointed at the fake, and one LLM judge after the change. */
function protocol(baseUrl: string): string {
  return `protocol_id: live
name: Codex live check
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    instructions: Keep changes small. Live-check marker 5d1c.
    coder: codex
    coder_config:
      base_url: ${JSON.stringify(baseUrl)}
      model: gpt-5.5
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

describe.skipIf(!live)('Codex, live against the fake LLM (set SNODO_COMPAT_LIVE=1)', () => {
  it('[slow] snodo run --coder codex makes the scripted edit, merges it, records usage and transcript', async () => {
    const fake: FakeLlm = await startFakeLlm({
      script: [
        {
          writeFile: { path: 'src/greeting.txt', content: 'hello from codex\n' },
          text: 'Writing the greeting.',
          usage: { input: 1200, output: 60, cached: 800 },
        },
        { text: 'Created src/greeting.txt.', usage: { input: 1500, output: 25, cached: 1100 } },
      ],
    });
    const directory = mkdtempSync(path.join(os.tmpdir(), 'snodo-live-codex-'));
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
      OPENAI_API_KEY: 'sk-live-check-0123456789',
      // Must not reach Codex: only the coder's own base_url may point it somewhere.
      OPENAI_BASE_URL: 'http://127.0.0.1:9/inherited/v1',
    };
    const git = (args: readonly string[]) =>
      execFileSync('git', args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    git(['init', '-q', '-b', 'trunk']);
    writeFileSync(path.join(root, 'README.md'), '# live\n');
    mkdirSync(path.join(root, '.snodo'));
    writeFileSync(path.join(root, '.snodo', 'protocol.yml'), protocol(fake.baseUrl.openai));
    git(['add', '-A']);
    git(['commit', '-q', '-m', 'initial']);
    const binary =
      process.env.SNODO_COMPAT_CODEX_BINARY ?? path.join(packageDirectory, 'node_modules', '.bin', 'codex');
    writeFileSync(
      path.join(snodoHome, 'config.yml'),
      `coders:\n  codex:\n    binary: ${JSON.stringify(binary)}\n`,
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
      coder: 'codex',
      model: 'mock/pass',
      coders: {
        registrations: [
          { id: 'mock', displayName: 'Mock coder', kind: 'engine-managed', load: () => createMockCoder() },
          {
            id: 'codex',
            displayName: 'Codex',
            kind: 'in-place',
            modelPrefix: 'codex/',
            load: () => createCodexCoder(),
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
    expect(git(['show', 'trunk:src/greeting.txt'])).toBe('hello from codex\n');
    expect(git(['log', '-1', '--format=%B', 'trunk'])).toContain(`Snodo-Coder: codex@${version}`);
    expect(fake.problems).toEqual([]);
    const main = fake.mainRequests();
    expect(main.length).toBeGreaterThanOrEqual(2);
    expect(main.every((request) => request.hasCredentials && request.model === 'gpt-5.5')).toBe(true);
    expect(main.every((request) => request.path === '/v1/responses')).toBe(true);
    // The mode's instructions reached the model through $CODEX_HOME/AGENTS.md.
    expect(fake.requestsContaining('Live-check marker 5d1c').length).toBeGreaterThan(0);

    const state = readJobState(root, result.jobId);
    expect(state.usage.coder).toMatchObject({ inputTokens: 800, outputTokens: 85, cachedInputTokens: 1900 });
    // Codex reports tokens but no cost: core prices a model it knows from its catalog (then the usage is
    // `estimated`) and leaves the cost unknown otherwise.
    expect(state.usage.coder?.models).toEqual(['gpt-5.5']);
    expect(state.usage.coder?.source).toBe(state.usage.coder?.costUsd === null ? 'reported' : 'estimated');
    const transcript = jobPaths(root, result.jobId).transcript;
    expect(statSync(transcript).size).toBeGreaterThan(0);
    const text = readFileSync(transcript, 'utf8');
    expect(text).toContain('"type":"turn.completed"');
    expect(text).not.toContain('sk-live-check-0123456789');
  }, 180_000);
});
