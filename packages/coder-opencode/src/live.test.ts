/**
 * Tier 2: the real OpenCode server from npm (the pinned devDependency `opencode-ai`, host runtime) against
 * the fake LLM on loopback, driven through core's `runTask` the way `snodo run --coder opencode` drives
 * it. Opt-in: SNODO_COMPAT_LIVE=1 (it starts the real `opencode serve`, which takes seconds).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createMockCoder } from '@snodo/coder-mock';
import { startFakeLlm } from '@snodo/conformance/fake-llm';
import { type RunEvent, readJobState, runTask } from '@snodo/core';
import { describe, expect, it } from 'vitest';
import { createOpencodeCoder } from './opencode-adapter.js';
import { VERIFIED_OPENCODE_VERSION } from './version.js';

const live = process.env.SNODO_COMPAT_LIVE === '1';
/** Runs only with SNODO_COMPAT_LIVE=1; otherwise the skipped test's title says how to run it. */
const liveTest = live ? it : it.skip;
const skipReason = live ? '' : ' (skipped: set SNODO_COMPAT_LIVE=1 to start the real opencode serve)';

/** The platform binary `opencode-ai`'s postinstall links into its own `bin/`. */
function opencodeBinary(): string {
  const manifest = createRequire(import.meta.url).resolve('opencode-ai/package.json');
  return path.join(path.dirname(manifest), 'bin', 'opencode.exe');
}

/**
 * The mode names the coder and carries its provider: an OpenAI-compatible provider at the fake LLM.
 * (`coders.opencode` in config.yml would be the user's place for it, but core's config schema keeps only
 * the keys it knows there; see the package README.)
 */
const protocol = (baseUrl: string) => `protocol_id: live
name: Live compatibility
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit]
    coder: opencode
    coder_config:
      provider_config:
        mock:
          npm: "@ai-sdk/openai-compatible"
          options:
            baseURL: ${baseUrl}
            apiKey: live-test-key
          models:
            m: {}
    validators: [review]
validators:
  - validator_id: review
    validator_type: conventions
    evaluation_phase: post_execute
    criteria: [The change does what the task asks.]
disagreement_policy: unanimous
execution:
  max_fix_attempts: 0
`;

describe('OpenCode server live (Tier 2) [slow]', () => {
  liveTest(
    `[slow] the real opencode serve makes a scripted edit through snodo run that is merged, with usage${skipReason}`,
    async () => {
      const fake = await startFakeLlm({
        script: [
          {
            writeFile: { path: 'hello.txt', content: 'hello from the opencode server\n' },
            text: 'Writing hello.txt.',
            usage: { input: 150, output: 25, cached: 50 },
          },
          'Created hello.txt.',
        ],
      });
      const directory = mkdtempSync(path.join(os.tmpdir(), 'snodo-live-opencode-server-'));
      try {
        const root = path.join(directory, 'repository');
        const home = path.join(directory, 'home');
        const snodoHome = path.join(directory, 'snodo-home');
        for (const each of [root, home]) mkdirSync(each);
        mkdirSync(snodoHome, { mode: 0o700 });
        writeFileSync(
          path.join(snodoHome, 'config.yml'),
          `coders:\n  opencode:\n    binary: ${JSON.stringify(opencodeBinary())}\n    model: mock/m\n`,
          { mode: 0o600 },
        );
        const env: Record<string, string> = {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: home,
          SNODO_HOME: snodoHome,
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig'),
          LANG: 'C.UTF-8',
        };
        writeFileSync(
          env.GIT_CONFIG_GLOBAL ?? '',
          '[user]\n\tname = Live Test\n\temail = live@example.com\n',
        );
        const git = (args: string[]) =>
          execFileSync('git', args, { cwd: root, env, encoding: 'utf8' }).trim();
        git(['init', '--quiet', '--initial-branch', 'trunk']);
        writeFileSync(path.join(root, 'README.md'), '# live\n');
        mkdirSync(path.join(root, '.snodo'));
        writeFileSync(path.join(root, '.snodo', 'protocol.yml'), protocol(fake.baseUrl.openai));
        git(['add', '--all']);
        git(['commit', '--quiet', '-m', 'initial']);

        const handle = runTask({
          task: 'Create hello.txt saying hello',
          cwd: root,
          env,
          homeDirectory: home,
          actor: 'live-test',
          coder: 'opencode',
          model: 'mock/pass',
          timeoutSeconds: 240,
          coders: {
            registrations: [
              {
                id: 'mock',
                displayName: 'Mock coder',
                kind: 'engine-managed',
                load: () => createMockCoder(),
              },
              {
                id: 'opencode',
                displayName: 'OpenCode (server)',
                kind: 'in-place',
                modelPrefix: 'opencode/',
                load: (settings) => createOpencodeCoder({ config: settings }),
              },
            ],
            defaultCoderId: 'mock',
            mockCoderId: 'mock',
          },
        });
        const events: RunEvent[] = [];
        for await (const event of handle.events) events.push(event);
        const result = await handle.result;

        expect(fake.problems).toEqual([]);
        expect(result).toMatchObject({ status: 'done', outcome: 'merged' });
        expect(git(['show', 'trunk:hello.txt'])).toBe('hello from the opencode server');
        expect(git(['log', '-1', '--format=%B', 'trunk'])).toContain(
          `Snodo-Coder: opencode@${VERIFIED_OPENCODE_VERSION}`,
        );
        const state = readJobState(root, result.jobId);
        // Two model calls (the write, then the final text); OpenCode reports input without cached tokens.
        expect(state.usage.coder).toMatchObject({
          inputTokens: 200,
          outputTokens: 45,
          cachedInputTokens: 50,
        });
        expect(fake.mainRequests().every((request) => request.model === 'm')).toBe(true);
        expect(fake.requestsContaining('Create hello.txt saying hello').length).toBeGreaterThan(0);
        // OpenCode read snodo's instructions file (the `instructions` entry of the config snodo gave it).
        expect(fake.requestsContaining('.snodo-instructions.md').length).toBeGreaterThan(0);
        expect(events.some((event) => event.type === 'usage')).toBe(true);
        const transcript = readFileSync(
          path.join(root, '.snodo', 'jobs', result.jobId, 'transcript.log'),
          'utf8',
        );
        expect(transcript).toContain('[assistant] Created hello.txt.');
        expect(transcript).toContain('opencode server listening on http://127.0.0.1:');
        expect(git(['status', '--porcelain'])).toBe('');
      } finally {
        await fake.close();
        rmSync(directory, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
