// Benchmarks for the snodo CLI (SPEC §11): `snodo --help` against `node -e ''` (lazy start-up), a full
// offline `snodo run "…" --mock` against a shell script doing the same git work (worktree, commit, merge,
// cleanup), and `snodo task show` and `snodo logs` (commands that only read a job) against `node -e ''`.
// Runs the built binary (apps/cli/dist); `pnpm bench` builds first.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const bin = join(root, 'apps/cli/dist/cli.js');
// What `snodo run` loads before its job starts: its action's chunk of the bundle (core, zod, yaml…), as the
// binary imports it (tsup.config.ts bundles them; the file name carries a content hash).
const runActionFile = readdirSync(join(root, 'apps/cli/dist')).find((file) =>
  /^run-action-[A-Z0-9]+\.js$/.test(file),
);
if (runActionFile === undefined) throw new Error('bench: apps/cli/dist has no run-action chunk; build first');
const runActionChunk = pathToFileURL(join(root, 'apps/cli/dist', runActionFile)).href;

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Wall-clock milliseconds of one child process; throws when it fails. */
function timeProcess(command, args, options = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`,
    );
  }
  return elapsed;
}

/** The protocol `snodo init` writes, with its test gate pointed at `true`: the bench measures snodo, not a test suite. */
function benchProtocol(env, directory) {
  const scratch = join(directory, 'template');
  mkdirSync(scratch, { recursive: true });
  execFileSync('git', ['init', '--quiet', scratch], { env });
  // A package.json with a test script makes `snodo init` write the tests gate; the bench then points it at `true`.
  writeFileSync(join(scratch, 'package.json'), '{"name":"bench","scripts":{"test":"true"}}\n');
  execFileSync(process.execPath, [bin, 'init'], { cwd: scratch, env, stdio: 'ignore' });
  const text = readFileSync(join(scratch, '.snodo/protocol.yml'), 'utf8');
  const detected = /^ {6}test_command: \[npm, test\].*$/m;
  if (!detected.test(text)) throw new Error('the solo template changed; update bench/cli.bench.mjs');
  return text.replace(detected, '      test_command: ["true"]');
}

/** A fresh repository with one commit (a README, and the protocol when given). */
function createRepository(directory, name, env, protocol) {
  const repository = join(directory, name);
  mkdirSync(repository, { recursive: true });
  const git = (args) => execFileSync('git', args, { cwd: repository, env, stdio: 'ignore' });
  git(['init', '--quiet', '--initial-branch', 'main']);
  writeFileSync(join(repository, 'README.md'), '# bench\n');
  if (protocol !== undefined) {
    mkdirSync(join(repository, '.snodo'));
    writeFileSync(join(repository, '.snodo/protocol.yml'), protocol);
  }
  git(['add', '--all']);
  git(['commit', '--quiet', '-m', 'initial']);
  return repository;
}

/** The git work of one landed task, as a person would script it. */
const BARE_SCRIPT = `set -eu
repository=$1; job=$2; worktree=$3
cd "$repository"
git worktree add --quiet -b "snodo/$job" "$worktree" HEAD
mkdir -p "$worktree/snodo-mock"
printf '# %s\\n\\nAdd a CONTRIBUTING.md with setup steps\\n' "$job" > "$worktree/snodo-mock/$job.md"
git -C "$worktree" add --all
git -C "$worktree" commit --quiet -m "snodo($job): Add a CONTRIBUTING.md with setup steps"
git merge --quiet --ff-only "snodo/$job"
git worktree remove "$worktree"
git branch --quiet -d "snodo/$job"
`;

export default async function ({ report, tmpdir }) {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`pnpm --filter snodo build\` first`);
  const home = join(tmpdir, 'home');
  mkdirSync(home, { recursive: true });
  const gitConfig = join(home, '.gitconfig');
  writeFileSync(gitConfig, '[user]\n\tname = Bench\n\temail = bench@example.com\n');
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    SNODO_HOME: join(tmpdir, 'snodo-home'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: gitConfig,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
  };

  // 1. Start-up: --help must load commander only (no core, no AI SDK, no coder).
  const help = [];
  const bare = [];
  for (let round = 0; round < 15; round += 1) {
    bare.push(timeProcess(process.execPath, ['-e', ''], { env }));
    help.push(timeProcess(process.execPath, [bin, '--help'], { env }));
  }
  report('snodo --help', {
    value: median(help),
    unit: 'ms',
    baseline: median(bare),
    baselineName: "node -e ''",
    aim: 2.5,
  });

  // 2. A full offline run against the same git work done by a shell script.
  const protocol = benchProtocol(env, tmpdir);
  const script = join(tmpdir, 'bare-task.sh');
  writeFileSync(script, BARE_SCRIPT);
  const runs = [];
  const scripted = [];
  let lastRepository;
  for (let round = 0; round < 5; round += 1) {
    const scriptRepository = createRepository(tmpdir, `bare-${round}`, env);
    scripted.push(
      timeProcess(
        'bash',
        [script, scriptRepository, `j_bench${round}`, join(tmpdir, `bare-worktree-${round}`)],
        { env },
      ),
    );
    lastRepository = createRepository(tmpdir, `snodo-${round}`, env, protocol);
    runs.push(
      timeProcess(process.execPath, [bin, 'run', 'Add a CONTRIBUTING.md with setup steps', '--mock'], {
        cwd: lastRepository,
        env,
      }),
    );
  }
  report('snodo run --mock (solo protocol, test gate `true`)', {
    value: median(runs),
    unit: 'ms',
    baseline: median(scripted),
    baselineName: 'the same git work in bash',
    aim: 1.5,
  });

  // Where the time goes: node + loading core, then each stage as the last run recorded it.
  const imports = [];
  for (let round = 0; round < 5; round += 1) {
    imports.push(
      timeProcess(
        process.execPath,
        ['--input-type=module', '-e', `await import(${JSON.stringify(runActionChunk)})`],
        { env },
      ),
    );
  }
  report('node + import of the run action, core bundled in (part of every run)', {
    value: median(imports),
    unit: 'ms',
  });
  const jobs = join(lastRepository, '.snodo/jobs');
  const [jobId] = readdirSync(jobs);

  // 3. Commands that only read a job load core's lean `jobs` entry and never open the audit log.
  const readers = { 'snodo task show': ['task', 'show', jobId], 'snodo logs': ['logs', jobId] };
  const readerTimes = Object.fromEntries(Object.keys(readers).map((name) => [name, []]));
  const readerBare = [];
  for (let round = 0; round < 9; round += 1) {
    readerBare.push(timeProcess(process.execPath, ['-e', ''], { env }));
    for (const [name, args] of Object.entries(readers)) {
      readerTimes[name].push(timeProcess(process.execPath, [bin, ...args], { cwd: lastRepository, env }));
    }
  }
  for (const [name, times] of Object.entries(readerTimes)) {
    report(name, {
      value: median(times),
      unit: 'ms',
      baseline: median(readerBare),
      baselineName: "node -e ''",
      aim: 3,
    });
  }

  const state = JSON.parse(readFileSync(join(jobs, jobId, 'state.json'), 'utf8'));
  const stages = Object.entries(state.stages)
    .sort(([, left], [, right]) => left.startedAt.localeCompare(right.startedAt))
    .map(([stage, timing]) => `${stage} ${timing.durationMs} ms`)
    .join(', ');
  const total = Date.parse(state.endedAt) - Date.parse(state.createdAt);
  console.log(`  last run's stages (state.json): ${stages}; job ${total} ms from creation to end`);
}
