import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeLlm, startFakeLlm } from '@snodo/conformance/fake-llm';
import { type CoderRegistration, jobPaths, type RunEvent, readJobState, runTask } from '@snodo/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLitellmCoder } from './litellm-adapter.js';
import { toolResultTexts } from './testing/dialect-cases.js';

// End to end through @snodo/core: a real repository, a private $SNODO_HOME, the fake LLM as provider
// `fake` (an OpenAI-compatible endpoint) serving the coder on one model and the judges on another.

const ORIGINAL = 'export const greeting = "hi";\n';
const EDITED = 'export const greeting = "hello, world";\n';
const PASS = { verdict: { severity: 'pass', justification: 'Looks right.', findings: [] } };

/** The registration the CLI adds for the default coder (see the package README). */
const litellmRegistration: CoderRegistration = {
  id: 'litellm',
  displayName: 'LLM coder',
  kind: 'engine-managed',
  usesJudgingModel: true,
  installHint: 'Built into snodo.',
  load: (settings) => createLitellmCoder(settings),
};

function protocolFor(fake: FakeLlm): string {
  return `protocol_id: e2e
name: End to end
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit, dispatch]
    validators: [task-review, code-review]
    # NOTE: core does not forward config providers to a coder yet; the mode's coder_config reaches it.
    coder_config:
      providers:
        fake:
          base_url: ${fake.sdkBaseUrl.openai}
      max_retries: 0
validators:
  - validator_id: task-review
    validator_type: planning
    evaluation_phase: pre_execute
    criteria: [The task is clear.]
  - validator_id: code-review
    validator_type: architecture
    evaluation_phase: post_execute
    criteria: [The change does what the task asks.]
disagreement_policy: unanimous
execution:
  max_fix_attempts: 0
`;
}

interface Repository {
  readonly root: string;
  readonly env: Record<string, string>;
  readonly home: string;
  git(args: readonly string[]): string;
}

let directory: string;
let repository: Repository;
let fake: FakeLlm;

beforeEach(async () => {
  fake = await startFakeLlm();
  directory = mkdtempSync(join(tmpdir(), 'snodo-litellm-e2e-'));
  const root = join(directory, 'repository');
  const home = join(directory, 'home');
  const snodoHome = join(directory, 'snodo-home');
  for (const path of [root, home]) mkdirSync(path);
  mkdirSync(snodoHome, { mode: 0o700 });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    SNODO_HOME: snodoHome,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
    LANG: 'C.UTF-8',
  };
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Test User\n\temail = test@example.com\n');
  const git = (args: readonly string[]) =>
    execFileSync('git', args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  git(['init', '--quiet', '--initial-branch', 'trunk']);
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, '.snodo'));
  writeFileSync(join(root, 'src/greeting.ts'), ORIGINAL);
  writeFileSync(join(root, '.snodo/protocol.yml'), protocolFor(fake));
  git(['add', '--all']);
  git(['commit', '--quiet', '-m', 'initial']);
  writeFileSync(
    join(snodoHome, 'config.yml'),
    [
      'providers:',
      '  fake:',
      `    base_url: ${fake.sdkBaseUrl.openai}`,
      'llm:',
      '  coder:',
      '    model: fake/coder-model',
      '  validator:',
      '    model: fake/judge-model',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  repository = { root, env, home, git };
});

afterEach(async () => {
  await fake.close();
  rmSync(directory, { recursive: true, force: true });
});

async function runWithLitellm(task: string) {
  const handle = runTask({
    task,
    cwd: repository.root,
    env: repository.env,
    homeDirectory: repository.home,
    actor: 'tester',
    coder: 'litellm',
    coders: { registrations: [litellmRegistration], defaultCoderId: 'litellm', mockCoderId: 'litellm' },
  });
  const events: RunEvent[] = [];
  const collecting = (async () => {
    for await (const event of handle.events) events.push(event);
  })();
  const result = await handle.result;
  await collecting;
  return { result, events };
}

describe('snodo run --coder litellm, end to end through core', () => {
  it('reads a file, submits an edit, passes the judges and lands it, with usage per role', async () => {
    fake.script.push(
      { ...PASS, usage: { input: 900, output: 60 } },
      {
        toolCall: { name: 'read_file', input: { path: 'src/greeting.ts' } },
        usage: { input: 1300, output: 40 },
      },
      { writeFile: { path: 'src/greeting.ts', content: EDITED }, usage: { input: 1500, output: 90 } },
      { ...PASS, usage: { input: 1100, output: 70 } },
    );

    const { result, events } = await runWithLitellm(
      'Change the greeting in src/greeting.ts to "hello, world"',
    );

    expect(fake.problems).toEqual([]);
    expect(result).toMatchObject({ status: 'done', outcome: 'merged' });
    expect(repository.git(['show', 'trunk:src/greeting.ts'])).toBe(EDITED.trimEnd());
    expect(repository.git(['log', '-1', '--format=%B', 'trunk'])).toContain('Snodo-Coder: litellm@0.1.0');

    const models = fake.mainRequests().map((entry) => entry.model);
    expect(models).toEqual(['judge-model', 'coder-model', 'coder-model', 'judge-model']);
    const coderRequests = fake.mainRequests().filter((entry) => entry.model === 'coder-model');
    expect(toolResultTexts(coderRequests[1]?.body)).toContain(ORIGINAL);
    // The post-execute judge saw the real diff.
    expect(fake.requestsContaining('hello, world').map((entry) => entry.model)).toContain('judge-model');

    const state = readJobState(repository.root, result.jobId);
    expect(state.usage.coder).toMatchObject({
      inputTokens: 2800,
      outputTokens: 130,
      calls: 1,
      models: ['fake/coder-model'],
      // The provider reported the tokens; the model has no price, so nothing was estimated.
      source: 'reported',
    });
    // The job transcript `snodo logs` prints holds the coder's exchanges with the model.
    const transcript = readFileSync(jobPaths(repository.root, result.jobId).transcript, 'utf8');
    expect(transcript).toContain('[tool call] read_file {"path":"src/greeting.ts"}');
    expect(transcript).toContain('[tool call] submit_files');
    expect(transcript).toMatch(/=== submitted 1 file\(s\) by tool after 2 turn\(s\)/);
    expect(state.usage.judges).toMatchObject({
      inputTokens: 2000,
      outputTokens: 130,
      calls: 2,
      models: ['fake/judge-model'],
    });
    expect(events.filter((event) => event.type === 'coder-progress').map((event) => event.message)).toEqual([
      'read_file src/greeting.ts',
      'submit_files 1 file(s)',
    ]);
  }, 60_000);

  it('halts a hostile proposal as proposal_refused, naming the path, with nothing landed', async () => {
    fake.script.push(PASS, { writeFile: { path: '.snodo/protocol.yml', content: 'protocol_id: pwned\n' } });
    const before = repository.git(['rev-parse', 'trunk']);

    const { result } = await runWithLitellm('Loosen the rules');

    expect(fake.problems).toEqual([]);
    expect(result).toMatchObject({
      status: 'halted',
      outcome: 'proposal_refused',
      error: { code: 'PROPOSAL_PATH_REFUSED' },
    });
    expect(result.error?.message).toContain("'.snodo/protocol.yml'");
    expect(repository.git(['rev-parse', 'trunk'])).toBe(before);
    expect(repository.git(['show', 'trunk:.snodo/protocol.yml'])).toContain('protocol_id: e2e');
  }, 60_000);
});
