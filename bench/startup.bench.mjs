// Benchmarks of what a user feels on every command (issue "speed at scale"), through the built binary, each
// a ratio against a baseline measured in the same run:
// - `snodo run --mock` with a 1M-event audit log vs with a 1k-event one (start-up must stay flat);
// - `snodo task list` and `snodo config path` vs `node -e ''` (commands that load only what they use);
// - a mock run through the binary vs a bash script doing the same safety steps with git plumbing (clean
//   checks, an isolated worktree, merge-tree, a compare-and-swap update-ref, the checkout update);
// - `snodo task list` over 2,000 jobs vs a script that only reads and JSON-parses their state files;
// - git processes one run spawns (counted through a `git` wrapper first on PATH, printed).
// Imports nothing from the packages: it drives `apps/cli/dist/cli.js` as a user would. `pnpm bench` builds first.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  cpSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { plumbingScript, scriptRunner } from './git-baselines.mjs';

const root = join(import.meta.dirname, '..');
const cli = join(root, 'apps/cli/dist/cli.js');
const audit = await import(pathToFileURL(join(root, 'packages/audit/dist/index.js')).href);
// BENCH_LOG_EVENTS shrinks the large log for a quick try of this file; the figure the issue asks for is at 1M.
const largeLogEvents = Number(process.env.BENCH_LOG_EVENTS ?? 1_000_000);
const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timed(work, runs = 3) {
  const times = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    work(index);
    times.push(performance.now() - started);
  }
  return median(times);
}

function snodo(args, { cwd, env }) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, env, encoding: 'utf8', stdio: 'pipe' });
  if (result.status !== 0) {
    throw new Error(`snodo ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

function makeRepository(tmpdir, name) {
  const repository = join(tmpdir, name);
  mkdirSync(repository, { recursive: true });
  const git = (...args) => execFileSync(realGit, args, { cwd: repository, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'bench');
  git('config', 'user.email', 'bench@localhost');
  writeFileSync(join(repository, 'README.md'), '# bench\n');
  mkdirSync(join(repository, '.snodo'));
  writeFileSync(join(repository, '.snodo/protocol.yml'), benchProtocol);
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  return repository;
}

/** Appends `count` valid chained events after the log's head, in large batches, as the audit bench does. */
async function growLog(repository, count) {
  const path = join(repository, '.snodo/audit.log');
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  const head = JSON.parse(lines.at(-1));
  let prev = head.hash;
  const descriptor = openSync(path, 'a');
  try {
    let batch = [];
    for (let seq = head.seq + 1; seq <= head.seq + count; seq += 1) {
      const { hash, line } = audit.serializeEvent({
        v: 1,
        seq,
        ts: new Date(1_700_000_000_000 + seq).toISOString(),
        type: 'gate-verdict',
        job: `j_${Math.floor(seq / 50).toString(36)}`,
        actor: 'snodo',
        data: { validator: 'security', severity: 'pass', justification: 'No issue in the diff.', attempt: 1 },
        prev,
      });
      prev = hash;
      batch.push(line);
      if (batch.length === 10_000) {
        writeSync(descriptor, `${batch.join('\n')}\n`);
        batch = [];
      }
    }
    if (batch.length > 0) writeSync(descriptor, `${batch.join('\n')}\n`);
  } finally {
    closeSync(descriptor);
  }
}

/** One mock judge before, none after: the run's own work, not a gate's, is what these figures measure. */
const benchProtocol = `protocol_id: bench
name: Bench
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit, dispatch]
    validators: [clear-task]
validators:
  - validator_id: clear-task
    validator_type: planning
    evaluation_phase: pre_execute
    criteria: [The task is clear.]
disagreement_policy: unanimous
`;

export default async function bench({ report, tmpdir }) {
  const home = join(tmpdir, 'snodo-home');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const env = { PATH: process.env.PATH, HOME: tmpdir, SNODO_HOME: home, NO_COLOR: '1' };
  const run = (repository, index) =>
    snodo(['run', `bench task ${index}`, '--mock'], { cwd: repository, env });

  // 1. Start-up with a large log vs a small one. A first run makes the log and a checkpoint; the log then
  // grows; a second run verifies the growth once and checkpoints it; the measured runs follow.
  {
    const small = makeRepository(tmpdir, 'small-log');
    const large = makeRepository(tmpdir, 'large-log');
    run(small, 0);
    run(large, 0);
    await growLog(small, 1_000);
    await growLog(large, largeLogEvents);
    run(small, 1);
    run(large, 1);
    const smallMs = timed((index) => run(small, 10 + index));
    const largeMs = timed((index) => run(large, 10 + index));
    report(`snodo run --mock, ${largeLogEvents.toLocaleString('en-US')}-event log`, {
      value: largeMs,
      unit: 'ms',
      baseline: smallMs,
      baselineName: '1k-event log',
      aim: 1.1,
    });
  }

  // 2. Read-only commands vs an empty node.
  {
    const repository = makeRepository(tmpdir, 'commands');
    run(repository, 0);
    // The same environment as the snodo runs: an inherited NODE_EXTRA_CA_CERTS alone costs ~45 ms here.
    const nodeMs = timed(() => execFileSync(process.execPath, ['-e', ''], { env }), 5);
    const listMs = timed(() => snodo(['task', 'list'], { cwd: repository, env }), 5);
    const pathMs = timed(() => snodo(['config', 'path'], { cwd: repository, env }), 5);
    report('snodo task list', {
      value: listMs,
      unit: 'ms',
      baseline: nodeMs,
      baselineName: "node -e ''",
      aim: 3,
    });
    report('snodo config path', {
      value: pathMs,
      unit: 'ms',
      baseline: nodeMs,
      baselineName: "node -e ''",
      aim: 3,
    });
  }

  // 2b. A long history: `task list` over 2,000 jobs (copies of one real job) vs the least any listing does,
  // reading each `state.json` and parsing it. The difference is checking each against its schema.
  {
    const repository = makeRepository(tmpdir, 'many-jobs');
    run(repository, 0);
    const jobs = join(repository, '.snodo/jobs');
    const [original] = readdirSync(jobs);
    for (let index = 0; index < 2_000; index += 1) {
      const jobId = `j_bench${index.toString(36).padStart(5, '0')}`;
      cpSync(join(jobs, original), join(jobs, jobId), { recursive: true });
      const statePath = join(jobs, jobId, 'state.json');
      writeFileSync(statePath, readFileSync(statePath, 'utf8').replaceAll(original, jobId));
    }
    const readAll = `const { readdirSync, readFileSync } = require('node:fs');
let characters = 0;
for (const id of readdirSync('.snodo/jobs')) characters += JSON.parse(readFileSync('.snodo/jobs/' + id + '/state.json', 'utf8')).task.length;`;
    const floorMs = timed(() => execFileSync(process.execPath, ['-e', readAll], { cwd: repository, env }), 5);
    const listMs = timed(() => snodo(['task', 'list'], { cwd: repository, env }), 5);
    report('snodo task list, 2,001 jobs', {
      value: listMs,
      unit: 'ms',
      baseline: floorMs,
      baselineName: 'node reading and parsing their state.json',
    });
  }

  // 3. A mock run through the binary vs the plumbing script with the same safety steps; git processes counted.
  {
    const repository = makeRepository(tmpdir, 'binary');
    const plumbing = scriptRunner(tmpdir, 'plumbing', plumbingScript, makeRepository(tmpdir, 'plumbing'));
    run(repository, 0);
    const binaryMs = timed((index) => run(repository, 1 + index), 5);
    const plumbingMs = timed(() => plumbing(), 5);
    report('snodo run --mock (binary)', {
      value: binaryMs,
      unit: 'ms',
      baseline: plumbingMs,
      baselineName: 'git plumbing, same safety steps',
      aim: 2.5,
    });

    const wrapperDirectory = join(tmpdir, 'git-wrapper');
    const countFile = join(tmpdir, 'git-count');
    mkdirSync(wrapperDirectory);
    // Logs each process's subcommand: the first argument that is not an option or an option's value.
    const wrapper = `#!/bin/sh
skip=
for argument in "$@"; do
  if [ -n "$skip" ]; then skip=; continue; fi
  case "$argument" in
    -C|-c|--git-dir|--work-tree|--namespace) skip=1 ;;
    -*) ;;
    *) echo "$argument" >> '${countFile}'; break ;;
  esac
done
exec '${realGit}' "$@"
`;
    writeFileSync(join(wrapperDirectory, 'git'), wrapper);
    chmodSync(join(wrapperDirectory, 'git'), 0o755);
    writeFileSync(countFile, '');
    snodo(['run', 'counted task', '--mock'], {
      cwd: repository,
      env: { ...env, PATH: `${wrapperDirectory}:${env.PATH}` },
    });
    const spawned = readFileSync(countFile, 'utf8').split('\n').filter(Boolean);
    const counts = new Map();
    for (const name of spawned) counts.set(name, (counts.get(name) ?? 0) + 1);
    const bySubcommand = [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([name, count]) => `${name} ${count}`)
      .join(', ');
    report('git processes per mock run', {
      value: spawned.length,
      unit: `processes (${bySubcommand})`,
      aim: '≤ 30',
    });
  }
}
