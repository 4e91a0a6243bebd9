// Benchmark of many machines (SPEC §11, §13): 12 queued tasks (a command-template coder that sleeps 2 s and
// writes a file) on 1 worker × 1 slot versus 3 worker processes × 2 slots, each worker a process of the built
// CLI in its own clone of a bare remote, on a real redis-server of 127.0.0.1. Prints the throughput ratio
// (aim ≥ 3×) and the landing throughput under contention (lands per second while the 3 × 2 pool lands).
// Throughput is a running pool's: the task queue is paused until every worker says it is ready, so the
// ratio does not charge the pool for starting three processes (and registering three keys) on two cores
// where the baseline starts one; the start-up of each pool is printed on its own.
// SNODO_QUEUE_BENCH_TASKS changes the task count (default 12).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const cli = join(root, 'apps/cli/dist/cli.js');
const redisServer = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) => existsSync(path));
const tasks = Number(process.env.SNODO_QUEUE_BENCH_TASKS ?? 12);

const PROTOCOL = `protocol_id: bench-queue
name: Bench queue
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
      test_command: [node, -e, "process.exit(0)"]
disagreement_policy: unanimous
execution:
  max_fix_attempts: 0
`;

const CODER = `import { writeFileSync } from 'node:fs';
const name = /file-([a-z0-9]+)/.exec(process.argv[2] ?? '')?.[1] ?? 'unnamed';
await new Promise((resolve) => setTimeout(resolve, 2000));
writeFileSync(name + '.txt', name + '\\n');
`;

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startRedis(dir) {
  const port = await freePort();
  mkdirSync(dir, { recursive: true });
  const child = spawn(
    redisServer,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  await new Promise((resolve) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => child.once('exit', resolve).kill()),
  };
}

/** One round: a fresh remote and queue, `workers` processes × `slots`, `tasks` tasks; ms until all landed. */
async function round(dir, workers, slots) {
  mkdirSync(dir);
  const home = join(dir, 'home');
  mkdirSync(home);
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.com\n');
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
    LANG: 'C.UTF-8',
    USER: 'bench',
    NO_COLOR: '1',
  };
  const git = (args, cwd) => execFileSync('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const remote = join(dir, 'remote.git');
  git(['init', '--quiet', '--bare', '--initial-branch', 'main', remote], dir);
  const seed = join(dir, 'seed');
  git(['clone', '--quiet', remote, seed], dir);
  mkdirSync(join(seed, '.snodo'));
  writeFileSync(join(seed, '.snodo/protocol.yml'), PROTOCOL);
  writeFileSync(join(seed, 'README.md'), '# bench\n');
  git(['add', '--all'], seed);
  git(['commit', '--quiet', '-m', 'initial'], seed);
  git(['push', '--quiet', 'origin', 'HEAD:main'], seed);
  writeFileSync(join(dir, 'coder.mjs'), CODER);
  const redis = await startRedis(join(dir, 'redis'));
  const { openQueueConnection, submitTask } = await import(join(root, 'packages/queue/dist/index.js'));
  const connection = openQueueConnection(redis.url);
  const taskQueue = connection.createQueue('snodo-tasks');
  await taskQueue.pause();
  for (let index = 0; index < tasks; index += 1) {
    await submitTask({
      connection,
      cwd: seed,
      task: `Add file-b${index}`,
      actor: 'bench',
      options: { coder: 'sleepy', model: 'mock/pass' },
    });
  }
  const spawned = Date.now();
  const landings = [];
  let ready = 0;
  const landed = new Set();
  const children = [];
  for (let index = 0; index < workers; index += 1) {
    const clone = join(dir, `w${index}`);
    const snodoHome = join(dir, `w${index}-home`);
    git(['clone', '--quiet', remote, clone], dir);
    mkdirSync(snodoHome, { mode: 0o700 });
    writeFileSync(
      join(snodoHome, 'config.yml'),
      `queue:\n  url: ${redis.url}\ncoders:\n  sleepy:\n    command: ${JSON.stringify([process.execPath, join(dir, 'coder.mjs'), '{prompt}'])}\n`,
      { mode: 0o600 },
    );
    const child = spawn(
      process.execPath,
      [cli, 'worker', '--id', `w${index}`, '--concurrency', String(slots)],
      {
        cwd: clone,
        env: { ...env, SNODO_HOME: snodoHome },
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    let partial = '';
    child.stdout.on('data', (chunk) => {
      // Whole lines only: a chunk may end mid-line.
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      // Distinct jobs: a job landed in another's merge train says so twice (in the train, and when taken).
      for (const line of lines) {
        if (/ ready: /.test(line)) ready += 1;
        const job = / (\S+) landed /.exec(line)?.[1];
        if (job !== undefined && !landed.has(job)) {
          landed.add(job);
          landings.push(Date.now());
        }
      }
    });
    children.push(child);
  }
  const poll = () => new Promise((resolve) => setTimeout(resolve, 20));
  while (ready < workers) await poll();
  const startup = Date.now() - spawned;
  const started = Date.now();
  await taskQueue.resume();
  while (landings.length < tasks) await poll();
  const elapsed = Date.now() - started;
  await taskQueue.close();
  await Promise.all(
    children.map((child) => new Promise((resolve) => child.once('exit', resolve).kill('SIGTERM'))),
  );
  await redis.stop();
  return { elapsed, startup, landings };
}

export default async function ({ report, tmpdir }) {
  if (redisServer === undefined || !existsSync(cli)) {
    console.log('skipped: needs redis-server and the built CLI (pnpm build)');
    return;
  }
  const single = await round(join(tmpdir, 'single'), 1, 1);
  const pool = await round(join(tmpdir, 'pool'), 3, 2);
  const perSecond = (ms) => (tasks * 1000) / ms;
  report(`${tasks} queued tasks, 3 workers × 2 slots (tasks/s)`, {
    value: Number(perSecond(pool.elapsed).toFixed(3)),
    unit: 'tasks/s',
    baseline: Number(perSecond(single.elapsed).toFixed(3)),
    baselineName: '1 worker × 1 slot',
  });
  const ratio = single.elapsed / pool.elapsed;
  console.log(
    `pool start-up until every worker is ready: 1 × 1 ${single.startup} ms, 3 × 2 ${pool.startup} ms`,
  );
  console.log(`throughput ratio: ${ratio.toFixed(2)}× (aim ≥ 3×: ${ratio >= 3 ? 'met' : 'NOT met'})`);
  const counted = (single.startup + single.elapsed) / (pool.startup + pool.elapsed);
  console.log(`counting each pool's start-up as well: ${counted.toFixed(2)}×`);
  const window = (pool.landings.at(-1) - pool.landings[0]) / 1000;
  report('landings under contention (3 workers, one landing queue)', {
    value: Number(((pool.landings.length - 1) / Math.max(window, 0.001)).toFixed(3)),
    unit: 'lands/s',
  });
}
