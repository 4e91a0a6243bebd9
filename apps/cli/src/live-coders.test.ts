import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { probeSandbox } from '@snodo/coder-sdk';
import { type FakeLlm, startFakeLlm } from '@snodo/conformance/fake-llm';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliFixture, createCliFixture } from './testing/cli-fixture.js';
import { snodoInProcess } from './testing/in-process-cli.js';

/**
 * Tier 2 through the command line (SPEC §10): the real coding CLIs pinned in the coder packages'
 * devDependencies, pointed at the fake LLM on 127.0.0.1, driven by `snodo run --coder <id>` exactly as a
 * user types it: the scripted edit is merged, usage is in `snodo meta`, the transcript in `snodo logs`.
 * Each coder package's own live test checks the same through `runTask` with more detail.
 */
const live = process.env.SNODO_COMPAT_LIVE === '1';
/** The real CLIs run inside snodo's sandbox wherever bubblewrap works (SPEC §12), so that is checked too. */
const sandboxHere = (await probeSandbox()).available;
const packages = join(import.meta.dirname, '..', '..', '..', 'packages');

interface LiveCoder {
  readonly id: string;
  /** Where the pinned CLI's executable is. */
  readonly binDirectory: string;
  /** The dialect its provider speaks, to point it at the fake. */
  readonly dialect: keyof FakeLlm['baseUrl'];
  /** `coder_config` of the protocol's mode, given the fake's base URL. */
  readonly coderConfig: (baseUrl: string) => string;
  /** `$SNODO_HOME/config.yml`. */
  readonly config: string;
  /** The provider key the CLI needs (any value: the fake accepts every key). */
  readonly env: Readonly<Record<string, string>>;
}

const opencodeServerBinary = join(
  packages,
  'coder-opencode',
  'node_modules',
  'opencode-ai',
  'bin',
  'opencode.exe',
);

const coders: readonly LiveCoder[] = [
  {
    id: 'claude-code',
    binDirectory: join(packages, 'coder-claude-code', 'node_modules', '.bin'),
    dialect: 'anthropic',
    coderConfig: (baseUrl) => `base_url: ${JSON.stringify(baseUrl)}\n      model: claude-sonnet-4-5`,
    config: '',
    env: { ANTHROPIC_API_KEY: 'sk-ant-live-check-0123456789' },
  },
  {
    id: 'codex',
    binDirectory: join(packages, 'coder-codex', 'node_modules', '.bin'),
    dialect: 'openai',
    coderConfig: (baseUrl) => `base_url: ${JSON.stringify(baseUrl)}\n      model: gpt-5.5`,
    config: '',
    env: { OPENAI_API_KEY: 'sk-live-check-0123456789' },
  },
  {
    id: 'gemini-cli',
    binDirectory: join(packages, 'coder-gemini-cli', 'node_modules', '.bin'),
    dialect: 'gemini',
    coderConfig: (baseUrl) => `base_url: ${JSON.stringify(baseUrl)}`,
    config: 'coders:\n  gemini-cli:\n    model: gemini-2.5-pro\n',
    env: { GEMINI_API_KEY: 'live-check-key-0123456789' },
  },
  {
    id: 'opencode-cli',
    binDirectory: join(packages, 'coder-opencode-cli', 'node_modules', '.bin'),
    dialect: 'openai',
    coderConfig: (baseUrl) => `base_url: ${JSON.stringify(baseUrl)}`,
    config: 'coders:\n  opencode-cli:\n    model: snodo/m\n',
    env: { OPENAI_API_KEY: 'live-check-key-0123456789' },
  },
  {
    id: 'opencode',
    binDirectory: join(packages, 'coder-opencode', 'node_modules', '.bin'),
    dialect: 'openai',
    coderConfig: (baseUrl) =>
      [
        'provider_config:',
        '        mock:',
        '          npm: "@ai-sdk/openai-compatible"',
        '          options:',
        `            baseURL: ${JSON.stringify(baseUrl)}`,
        '            apiKey: live-check-key',
        '          models:',
        '            m: {}',
      ].join('\n'),
    config: `coders:\n  opencode:\n    binary: ${JSON.stringify(opencodeServerBinary)}\n    model: mock/m\n`,
    env: {},
  },
];

function protocol(coder: LiveCoder, baseUrl: string): string {
  return `protocol_id: live
name: Live check through the CLI
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit]
    validators: [review]
    coder_config:
      ${coder.coderConfig(baseUrl)}
validators:
  - validator_id: review
    validator_type: conventions
    evaluation_phase: post_execute
    criteria: [The change does what the task asks.]
disagreement_policy: unanimous
execution:
  max_fix_attempts: 0
`;
}

let fixture: CliFixture | undefined;
let fake: FakeLlm | undefined;
afterEach(async () => {
  await fake?.close();
  fixture?.cleanup();
  fake = undefined;
  fixture = undefined;
});

describe.skipIf(!live)(
  'the real coding CLIs through `snodo run --coder <id>` (set SNODO_COMPAT_LIVE=1)',
  () => {
    for (const coder of coders) {
      it(`[slow] ${coder.id}: the scripted edit is merged, with usage in meta and a transcript in logs`, async () => {
        expect(existsSync(coder.binDirectory), `${coder.id}'s pinned CLI is installed`).toBe(true);
        fake = await startFakeLlm({
          script: [
            {
              writeFile: { path: 'hello.txt', content: `hello from ${coder.id}\n` },
              text: 'Writing hello.txt.',
            },
            { text: 'Created hello.txt.' },
          ],
        });
        fixture = createCliFixture({ protocol: protocol(coder, fake.baseUrl[coder.dialect]) });
        fixture.writeConfig(coder.config);
        const env = {
          ...coder.env,
          PATH: `${coder.binDirectory}:${fixture.env.PATH}`,
        };

        const run = await fixture.snodo(
          ['run', 'Add hello.txt', '--coder', coder.id, '-m', 'mock/pass', '--json'],
          {
            env,
          },
        );

        expect(run.exitCode, run.all).toBe(0);
        expect(fake.problems).toEqual([]);
        const result = JSON.parse(run.stdout) as { jobId: string; outcome: string };
        expect(result.outcome).toBe('merged');
        expect(fixture.git(['show', 'HEAD:hello.txt'])).toBe(`hello from ${coder.id}`);
        const meta = JSON.parse(
          (await snodoInProcess(fixture, ['meta', result.jobId, '--json'], { env })).stdout,
        ) as {
          state: {
            usage: { coder?: { inputTokens: number; outputTokens: number } };
            coder: { id: string };
            sandbox?: { kind: string };
          };
        };
        expect(meta.state.coder.id).toBe(coder.id);
        expect(meta.state.sandbox?.kind).toBe(sandboxHere ? 'bubblewrap' : 'none');
        expect(meta.state.usage.coder?.inputTokens).toBeGreaterThan(0);
        const logs = await snodoInProcess(fixture, ['logs', result.jobId], { env });
        expect(logs.exitCode, logs.all).toBe(0);
        expect(logs.stdout.length).toBeGreaterThan(0);
        expect(
          readFileSync(join(fixture.root, '.snodo', 'jobs', result.jobId, 'transcript.log'), 'utf8'),
        ).not.toBe('');
      }, 120_000);
    }
  },
);
