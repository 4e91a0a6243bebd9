// Benchmark of containment (SPEC §11, §12): one run with a command-template coder (a shell writing one file,
// in-place like a CLI coder) and a command gate, sandboxed in bubblewrap, against the same run with
// `execution.sandbox: off`. Aim ≤ 1.15×.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const { runTask } = await import(join(root, 'packages/core/dist/index.js'));
const { createMockCoder } = await import(join(root, 'packages/coder-mock/dist/index.js'));
const { probeSandbox } = await import(join(root, 'packages/coder-sdk/dist/index.js'));

const coders = {
  registrations: [
    { id: 'mock', displayName: 'Mock coder', kind: 'engine-managed', load: () => createMockCoder() },
  ],
  defaultCoderId: 'mock',
  mockCoderId: 'mock',
};

function protocol(sandbox) {
  return `protocol_id: bench
name: Bench
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit, dispatch]
    validators: [review, tests]
validators:
  - validator_id: review
    validator_type: planning
    evaluation_phase: pre_execute
    criteria: [The task is clear.]
  - validator_id: tests
    validator_type: quality
    evaluation_phase: post_execute
    tooling:
      test_command: [sh, -c, "test -d ."]
disagreement_policy: unanimous
execution:
  sandbox: ${sandbox}
`;
}

function setUp(tmpdir, sandbox) {
  const directory = join(tmpdir, sandbox);
  const repository = join(directory, 'repository');
  const home = join(directory, 'snodo-home');
  mkdirSync(join(repository, '.snodo'), { recursive: true });
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(home, 'config.yml'),
    // NOTE: not `$$`: inside the sandbox's PID namespace it is the same small number every run.
    'coders:\n  writer:\n    command: [sh, -c, "printf bench > bench-$(basename \\"$PWD\\").txt", sh, "{prompt}"]\n',
    { mode: 0o600 },
  );
  const git = (...args) => execFileSync('git', args, { cwd: repository, stdio: 'ignore' });
  git('init', '-q', '-b', 'trunk');
  writeFileSync(join(repository, 'README.md'), '# bench\n');
  writeFileSync(join(repository, '.snodo/protocol.yml'), protocol(sandbox));
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-m', 'init');
  return { repository, env: { PATH: process.env.PATH, HOME: directory, SNODO_HOME: home } };
}

async function run({ repository, env }) {
  const started = performance.now();
  const handle = runTask({
    task: 'bench task',
    cwd: repository,
    coders,
    env,
    coder: 'writer',
    model: 'mock/pass',
  });
  const result = await handle.result;
  if (result.outcome !== 'merged') throw new Error(`bench run ended ${result.outcome}: ${result.summary}`);
  const state = JSON.parse(readFileSync(join(repository, '.snodo/jobs', result.jobId, 'state.json'), 'utf8'));
  return { ms: performance.now() - started, sandbox: state.sandbox?.kind };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export default async function bench({ report, tmpdir }) {
  const probe = await probeSandbox();
  if (!probe.available) {
    console.log(`sandboxed run: skipped (${probe.reason})`);
    return;
  }
  const sandboxed = setUp(tmpdir, 'auto');
  const unsandboxed = setUp(tmpdir, 'off');
  await run(sandboxed);
  await run(unsandboxed);
  const inside = [];
  const outside = [];
  for (let index = 0; index < 7; index += 1) {
    const contained = await run(sandboxed);
    if (contained.sandbox !== 'bubblewrap')
      throw new Error(`bench: the sandboxed run recorded ${contained.sandbox}`);
    inside.push(contained.ms);
    outside.push((await run(unsandboxed)).ms);
  }
  report('run with a command-template coder, sandboxed', {
    value: median(inside),
    unit: 'ms',
    baseline: median(outside),
    baselineName: 'execution.sandbox: off',
    aim: 1.15,
  });
}
