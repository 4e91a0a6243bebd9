/**
 * Tier 2: the real Gemini CLI from npm (the pinned devDependency) against the fake LLM on loopback, driven
 * through core's `runTask` the way `snodo run --coder gemini-cli` drives it. Opt-in: SNODO_COMPAT_LIVE=1.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMockCoder } from '@snodo/coder-mock';
import { startFakeLlm } from '@snodo/conformance/fake-llm';
import { readJobState, runTask } from '@snodo/core';
import { describe, expect, it } from 'vitest';
import { createGeminiCliCoder } from './gemini-cli-adapter.js';

const live = process.env.SNODO_COMPAT_LIVE === '1';
/** Runs only with SNODO_COMPAT_LIVE=1; otherwise the skipped test's title says how to run it. */
const liveTest = live ? it : it.skip;
const skipReason = live ? '' : ' (skipped: set SNODO_COMPAT_LIVE=1)';
/** The pinned CLI from this package's devDependencies; SNODO_COMPAT_BIN_DIR checks another install. */
const packageBin =
  process.env.SNODO_COMPAT_BIN_DIR ?? fileURLToPath(new URL('../node_modules/.bin', import.meta.url));

const protocol = (baseUrl: string) => `protocol_id: live
name: Live compatibility
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit]
    coder: gemini-cli
    coder_config:
      base_url: ${baseUrl}
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

describe('Gemini CLI live (Tier 2) [slow]', () => {
  liveTest(
    `[slow] makes a scripted edit through snodo run that is merged, with usage and transcript${skipReason}`,
    async () => {
      const fake = await startFakeLlm({
        script: [
          { writeFile: { path: 'hello.txt', content: 'hello from gemini\n' }, text: 'Writing hello.txt.' },
          'Created hello.txt.',
        ],
      });
      const directory = mkdtempSync(path.join(os.tmpdir(), 'snodo-live-gemini-'));
      try {
        const root = path.join(directory, 'repository');
        const home = path.join(directory, 'home');
        const snodoHome = path.join(directory, 'snodo-home');
        for (const each of [root, home]) mkdirSync(each);
        mkdirSync(snodoHome, { mode: 0o700 });
        // The coder's own model comes from config, as `coders.gemini-cli.model`: -m stays the judging model.
        writeFileSync(
          path.join(snodoHome, 'config.yml'),
          'coders:\n  gemini-cli:\n    model: gemini-2.5-pro\n',
          {
            mode: 0o600,
          },
        );
        const env: Record<string, string> = {
          PATH: `${packageBin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
          HOME: home,
          SNODO_HOME: snodoHome,
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig'),
          LANG: 'C.UTF-8',
          GEMINI_API_KEY: 'live-test-key',
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
        writeFileSync(path.join(root, '.snodo', 'protocol.yml'), protocol(fake.baseUrl.gemini));
        git(['add', '--all']);
        git(['commit', '--quiet', '-m', 'initial']);

        const handle = runTask({
          task: 'Create hello.txt saying hello',
          cwd: root,
          env,
          homeDirectory: home,
          actor: 'live-test',
          coder: 'gemini-cli',
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
                id: 'gemini-cli',
                displayName: 'Gemini CLI',
                kind: 'in-place',
                modelPrefix: 'gemini-cli/',
                load: () => createGeminiCliCoder(),
              },
            ],
            defaultCoderId: 'mock',
            mockCoderId: 'mock',
          },
        });
        for await (const _event of handle.events) {
          // drain the event stream so the run is never held back by an unread channel
        }
        const result = await handle.result;

        expect(fake.problems).toEqual([]);
        expect(result).toMatchObject({ status: 'done', outcome: 'merged' });
        expect(git(['show', 'trunk:hello.txt'])).toBe('hello from gemini');
        const state = readJobState(root, result.jobId);
        // Gemini CLI reports tokens but no cost; core prices them, which makes the record `estimated`.
        expect(state.usage.coder).toMatchObject({ inputTokens: 200, outputTokens: 40, cachedInputTokens: 0 });
        expect(fake.mainRequests().map((request) => request.model)).toEqual([
          'gemini-2.5-pro',
          'gemini-2.5-pro',
        ]);
        const transcript = readFileSync(
          path.join(root, '.snodo', 'jobs', result.jobId, 'transcript.log'),
          'utf8',
        );
        expect(transcript).toContain('"type":"result"');
        expect(fake.requestsContaining('Create hello.txt saying hello').length).toBeGreaterThan(0);
        // The instructions file (its heading is not in the prompt) reached the model: the CLI read it.
        expect(fake.requestsContaining('# Instructions from snodo').length).toBeGreaterThan(0);
      } finally {
        await fake.close();
        rmSync(directory, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
