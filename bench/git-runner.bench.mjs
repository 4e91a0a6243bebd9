// The git runner (SDK src/git/, see ARCHITECTURE.md "One git runner"), each a ratio against a baseline
// measured here:
// - runGit per call vs a plain child_process spawn of the same git (the runner's own overhead);
// - simple-git's raw() per call vs the same plain spawn, for a command that prints and one that prints
//   nothing (simple-git waits 50 ms after a silent command);
// - 10 concurrent calls through one simple-git client (maxConcurrentProcesses 5) vs through runGit;
// - how many git processes one --mock run starts (counted through a PATH shim in a child process).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const sdk = join(root, 'packages/coder-sdk/dist/index.js');
const { runGit } = await import(sdk);
// simple-git is the SDK's dependency, not the root's: load the copy the SDK resolves.
const { simpleGit } = await import(join(root, 'packages/coder-sdk/node_modules/simple-git/dist/index.mjs'));

const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
const calls = 15;

function makeRepository(tmpdir) {
  const repository = join(tmpdir, 'repository');
  mkdirSync(repository);
  const git = (...args) => execFileSync(realGit, args, { cwd: repository, stdio: 'ignore' });
  git('init', '-q', '-b', 'trunk');
  git(
    '-c',
    'user.name=bench',
    '-c',
    'user.email=bench@localhost',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'init',
  );
  return repository;
}

function plainSpawn(cwd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(realGit, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(Buffer.concat(chunks).toString('utf8'))
        : reject(new Error(`git ${args[0]} exited ${code}`)),
    );
  });
}

/**
 * Per-call milliseconds of each variant, measured in interleaved rounds (so other load on the machine hits
 * them alike) and reduced to the median round.
 */
async function perCall(variants) {
  const rounds = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  for (const work of Object.values(variants)) for (let index = 0; index < 3; index += 1) await work();
  for (let round = 0; round < 7; round += 1) {
    for (const [name, work] of Object.entries(variants)) {
      const started = performance.now();
      for (let index = 0; index < calls; index += 1) await work();
      rounds[name].push((performance.now() - started) / calls);
    }
  }
  return Object.fromEntries(Object.entries(rounds).map(([name, values]) => [name, median(values)]));
}

function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

async function batch(work) {
  const rounds = [];
  for (let round = 0; round < 7; round += 1) {
    const started = performance.now();
    await Promise.all(Array.from({ length: 10 }, () => work()));
    rounds.push(performance.now() - started);
  }
  return median(rounds);
}

// core.bench's protocol with one judge, so the count matches its `mock run (runTask, 1 judge)`.
const protocol = `protocol_id: bench
name: Bench
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit, dispatch]
    validators: [judge-0]
validators:
  - validator_id: judge-0
    validator_type: planning
    evaluation_phase: pre_execute
    criteria: [The task is clear.]
disagreement_policy: unanimous
`;

/** One mock run in a child process whose PATH starts with a `git` that logs each start, then execs git. */
function countGitProcesses(tmpdir) {
  const shim = join(tmpdir, 'shim');
  const log = join(tmpdir, 'git-starts.log');
  mkdirSync(shim);
  writeFileSync(join(shim, 'git'), `#!/bin/sh\necho "$1 $2" >> '${log}'\nexec '${realGit}' "$@"\n`);
  chmodSync(join(shim, 'git'), 0o755);
  writeFileSync(log, '');
  const project = join(tmpdir, 'counted');
  mkdirSync(join(project, '.snodo'), { recursive: true });
  const git = (...args) => execFileSync(realGit, args, { cwd: project, stdio: 'ignore' });
  git('init', '-q', '-b', 'trunk');
  writeFileSync(join(project, 'README.md'), '# bench\n');
  writeFileSync(join(project, '.snodo/protocol.yml'), protocol);
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-m', 'init');
  const script = `
    const { runTask } = await import(${JSON.stringify(join(root, 'packages/core/dist/index.js'))});
    const { createMockCoder } = await import(${JSON.stringify(join(root, 'packages/coder-mock/dist/index.js'))});
    const coders = { registrations: [{ id: 'mock', displayName: 'Mock', kind: 'engine-managed', load: () => createMockCoder() }], defaultCoderId: 'mock', mockCoderId: 'mock' };
    const env = { PATH: process.env.PATH, HOME: ${JSON.stringify(tmpdir)}, SNODO_HOME: ${JSON.stringify(join(tmpdir, 'home'))} };
    const result = await runTask({ task: 'bench task', cwd: ${JSON.stringify(project)}, coders, env, mock: true }).result;
    if (result.status !== 'done') throw new Error('bench run ended ' + result.outcome);
  `;
  const environment = { ...process.env, PATH: `${shim}:${process.env.PATH}` };
  // The first run creates the audit log and signing key; count the second, like core.bench's mock run.
  execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: environment,
    stdio: 'ignore',
  });
  writeFileSync(log, '');
  execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: environment,
    stdio: 'ignore',
  });
  const starts = readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  return {
    total: starts.length,
    throughRunner: starts.filter((line) => line.startsWith('--no-pager ')).length,
  };
}

export default async function bench({ report, tmpdir }) {
  const cwd = makeRepository(tmpdir);
  const printing = ['rev-parse', 'HEAD'];
  const quiet = ['update-ref', 'refs/heads/bench', 'HEAD'];
  const client = simpleGit({ baseDir: cwd, binary: realGit });
  const printingCalls = await perCall({
    plain: () => plainSpawn(cwd, printing),
    runner: () => runGit(printing, { cwd }),
    simple: () => client.raw(printing),
  });
  report('runGit per call (rev-parse HEAD)', {
    value: printingCalls.runner,
    unit: 'ms',
    baseline: printingCalls.plain,
    baselineName: 'plain spawn',
  });
  report('simple-git raw() per call, printing', {
    value: printingCalls.simple,
    unit: 'ms',
    baseline: printingCalls.plain,
    baselineName: 'plain spawn',
  });
  const quietCalls = await perCall({
    plain: () => plainSpawn(cwd, quiet),
    runner: () => runGit(quiet, { cwd }),
    simple: () => client.raw(quiet),
  });
  report('runGit per call, silent (update-ref)', {
    value: quietCalls.runner,
    unit: 'ms',
    baseline: quietCalls.plain,
    baselineName: 'plain spawn',
  });
  report('simple-git raw() per call, silent (update-ref)', {
    value: quietCalls.simple,
    unit: 'ms',
    baseline: quietCalls.plain,
    baselineName: 'plain spawn',
  });

  const concurrentRunner = await batch(() => runGit(printing, { cwd }));
  const concurrentSimple = await batch(() => client.raw(printing));
  report('10 concurrent calls, one simple-git client', {
    value: concurrentSimple,
    unit: 'ms',
    baseline: concurrentRunner,
    baselineName: 'runGit',
  });

  const counted = countGitProcesses(tmpdir);
  report('git processes in one mock run', { value: counted.total, unit: 'processes' });
  report('  of which through the runner (hardening flags first)', {
    value: counted.throughRunner,
    unit: 'processes',
  });
}
