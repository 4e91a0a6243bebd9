/**
 * Tier 2: the real OpenCode CLI from npm (the pinned devDependency `opencode-ai`) against the fake LLM on loopback, driven
 * through core's `runTask` the way `snodo run --coder opencode-cli` drives it. Opt-in: SNODO_COMPAT_LIVE=1.
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
import { createOpencodeCliCoder } from './opencode-cli-adapter.js';

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
    coder: opencode-cli
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

describe('OpenCode CLI live (Tier 2) [slow]', () => {
  liveTest(
    `[slow] makes a scripted edit through snodo run that is merged, with usage and transcript${skipReason}`,
    async () => {
      const fake = await startFakeLlm({
        script: [
          { writeFile: { path: 'hello.txt', content: 'hello from opencode\n' }, text: 'Writing hello.txt.' },
          'Created hello.txt.',
        ],
      });
      const directory = mkdtempSync(path.join(os.tmpdir(), 'snodo-live-opencode-'));
      try {
        const root = path.join(directory, 'repository');
        const home = path.join(directory, 'home');
        const snodoHome = path.join(directory, 'snodo-home');
        for (const each of [root, home]) mkdirSync(each);
        mkdirSync(snodoHome, { mode: 0o700 });
        // The coder's own model comes from config, as `coders.opencode-cli.model`: -m stays the judging model.
        writeFileSync(path.join(snodoHome, 'config.yml'), 'coders:\n  opencode-cli:\n    model: snodo/m\n', {
          mode: 0o600,
        });
        const env: Record<string, string> = {
          PATH: `${packageBin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
          HOME: home,
          SNODO_HOME: snodoHome,
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig'),
          LANG: 'C.UTF-8',
          OPENAI_API_KEY: 'live-test-key',
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
          coder: 'opencode-cli',
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
                id: 'opencode-cli',
                displayName: 'OpenCode CLI',
                kind: 'in-place',
                modelPrefix: 'opencode-cli/',
                load: () => createOpencodeCliCoder(),
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
        expect(git(['show', 'trunk:hello.txt'])).toBe('hello from opencode');
        const state = readJobState(root, result.jobId);
        // Two steps of the agent loop; OpenCode's title request is a side request and reports no step.
        expect(state.usage.coder).toMatchObject({ inputTokens: 200, outputTokens: 40, cachedInputTokens: 0 });
        expect(fake.mainRequests().map((request) => request.model)).toEqual(['m', 'm']);
        expect(fake.requests.every((request) => request.hasCredentials)).toBe(true);
        const transcript = readFileSync(
          path.join(root, '.snodo', 'jobs', result.jobId, 'transcript.log'),
          'utf8',
        );
        expect(transcript).toContain('"type":"step_finish"');
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
