// Benchmarks of @snodo/core's pipeline (SPEC §11), each a ratio against a baseline measured here:
// - one --mock run through runTask vs a bash script doing the same git work;
// - the same run in a repository with 2,000 finished jobs vs one with none;
// - four LLM judges vs one, against a fake LLM answering after 500 ms (concurrency: aim ≈ 1×);
// - 8 concurrent --mock runs on one repository vs the same 8 in sequence;
// - task workspace creation + removal on a 50k-file repository vs a raw `git worktree add` + `remove`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asyncScriptRunner, bareGitScript, plumbingScript, scriptRunner } from './git-baselines.mjs';

const root = join(import.meta.dirname, '..');
const { runTask, createTaskWorkspace, removeTaskWorkspace } = await import(
  join(root, 'packages/core/dist/index.js')
);
const { createMockCoder } = await import(join(root, 'packages/coder-mock/dist/index.js'));
const { startFakeLlm } = await import(join(root, 'packages/conformance/dist/fake-llm/index.js'));

const coders = {
  registrations: [
    { id: 'mock', displayName: 'Mock coder', kind: 'engine-managed', load: () => createMockCoder() },
  ],
  defaultCoderId: 'mock',
  mockCoderId: 'mock',
};

function protocol(preJudges) {
  const judges = Array.from({ length: preJudges }, (_, index) => `judge-${index}`);
  return `protocol_id: bench
name: Bench
initial_mode: producer
modes:
  - mode_id: producer
    name: Producer
    tools: [edit, dispatch]
    validators: [${judges.join(', ')}]
validators:
${judges
  .map(
    (id) => `  - validator_id: ${id}
    validator_type: planning
    evaluation_phase: pre_execute
    criteria: [The task is clear.]`,
  )
  .join('\n')}
disagreement_policy: unanimous
`;
}

function makeRepository(tmpdir, name, protocolText) {
  const repository = join(tmpdir, name);
  mkdirSync(join(repository, '.snodo'), { recursive: true });
  const git = (...args) => execFileSync('git', args, { cwd: repository, stdio: 'ignore' });
  git('init', '-q', '-b', 'trunk');
  writeFileSync(join(repository, 'README.md'), '# bench\n');
  writeFileSync(join(repository, '.snodo/protocol.yml'), protocolText);
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-m', 'init');
  return repository;
}

function environment(tmpdir, extra = {}) {
  const home = join(tmpdir, 'snodo-home');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return { PATH: process.env.PATH, HOME: tmpdir, SNODO_HOME: home, ...extra };
}

async function run(repository, env, options = {}) {
  const handle = runTask({ task: 'bench task', cwd: repository, coders, env, mock: true, ...options });
  const result = await handle.result;
  if (result.status !== 'done') throw new Error(`bench run ended ${result.outcome}: ${result.summary}`);
  return result;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function time(work) {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export default async function bench({ report, tmpdir }) {
  // 1. One mock run vs a person's bare git work, and vs the same landing with snodo's safety steps in
  // plumbing (bench/git-baselines.mjs says what each contains).
  {
    const env = environment(tmpdir);
    const repository = makeRepository(tmpdir, 'single', protocol(1));
    const bare = scriptRunner(tmpdir, 'bare', bareGitScript, makeRepository(tmpdir, 'bare', protocol(1)));
    const plumbing = scriptRunner(
      tmpdir,
      'plumbing',
      plumbingScript,
      makeRepository(tmpdir, 'plumbing', protocol(1)),
    );
    await run(repository, env); // warm-up: first audit log, signing key
    const snodo = [];
    const bareTimes = [];
    const plumbingTimes = [];
    for (let index = 0; index < 5; index += 1) {
      snodo.push(await time(() => run(repository, env)));
      bareTimes.push(await time(async () => bare()));
      plumbingTimes.push(await time(async () => plumbing()));
    }
    report('mock run (runTask, 1 judge)', {
      value: median(snodo),
      unit: 'ms',
      baseline: median(bareTimes),
      baselineName: 'bare git script',
    });
    report('mock run (runTask, 1 judge)', {
      value: median(snodo),
      unit: 'ms',
      baseline: median(plumbingTimes),
      baselineName: 'git plumbing, same safety steps',
      aim: 2,
    });
  }

  // 1b. A run in a repository with 2,000 finished jobs vs the same run in one without: a start reconciles only
  // the jobs that may be running (the running-jobs index), so history must not show.
  {
    const env = environment(tmpdir);
    const fresh = makeRepository(tmpdir, 'history-none', protocol(1));
    const busy = makeRepository(tmpdir, 'history-2000', protocol(1));
    await run(fresh, env);
    await run(busy, env);
    const jobs = join(busy, '.snodo/jobs');
    const [template] = readdirSync(jobs).filter((name) => name.startsWith('j_'));
    const state = JSON.parse(readFileSync(join(jobs, template, 'state.json'), 'utf8'));
    for (let index = 0; index < 2_000; index += 1) {
      const jobId = `j_past${String(index).padStart(6, '0')}`;
      mkdirSync(join(jobs, jobId));
      writeFileSync(join(jobs, jobId, 'state.json'), JSON.stringify({ ...state, jobId }, null, 2));
    }
    const withHistory = [];
    const without = [];
    for (let index = 0; index < 5; index += 1) {
      withHistory.push(await time(() => run(busy, env)));
      without.push(await time(() => run(fresh, env)));
    }
    report('mock run with 2,000 past jobs', {
      value: median(withHistory),
      unit: 'ms',
      baseline: median(without),
      baselineName: 'with none',
      aim: 1.1,
    });
  }

  // 2. Four judges vs one, each answer 500 ms late.
  {
    const measure = async (judges) => {
      const llm = await startFakeLlm({
        script: Array.from({ length: judges }, () => ({
          verdict: { severity: 'pass', justification: 'ok', findings: [] },
          delayMs: 500,
        })),
      });
      try {
        const directory = join(tmpdir, `judges-${judges}`);
        mkdirSync(directory);
        const env = environment(directory);
        writeFileSync(
          join(env.SNODO_HOME, 'config.yml'),
          `providers:\n  fake:\n    base_url: ${llm.baseUrl.openai}\n    api_key: bench-key\n`,
          { mode: 0o600 },
        );
        const repository = makeRepository(directory, 'repository', protocol(judges));
        return await time(() => run(repository, env, { mock: false, coder: 'mock', model: 'fake/judge' }));
      } finally {
        await llm.close();
      }
    };
    const one = await measure(1);
    const four = await measure(4);
    report('4 judges, 500 ms each', {
      value: four,
      unit: 'ms',
      baseline: one,
      baselineName: '1 judge',
      aim: 1.2,
    });
  }

  // 3. Eight concurrent runs vs eight in sequence.
  {
    const env = environment(tmpdir);
    const sequentialRepository = makeRepository(tmpdir, 'sequential', protocol(1));
    const concurrentRepository = makeRepository(tmpdir, 'concurrent', protocol(1));
    await run(sequentialRepository, env);
    await run(concurrentRepository, env);
    const sequential = await time(async () => {
      for (let index = 0; index < 8; index += 1) await run(sequentialRepository, env);
    });
    const concurrent = await time(() =>
      Promise.all(Array.from({ length: 8 }, () => run(concurrentRepository, env))),
    );
    report('8 concurrent mock runs', {
      value: concurrent,
      unit: 'ms',
      baseline: sequential,
      baselineName: '8 in sequence',
      aim: 0.7,
    });
    // A lower bound from the git work alone: the plumbing baseline, 8 scripts each on its own repository
    // (no Node, no shared ref or lock to wait for), at once versus in sequence. Where process creation does
    // not run in parallel this is near 1×, and no number of git processes per run gets runs far below it.
    const scripts = Array.from({ length: 8 }, (_, index) =>
      asyncScriptRunner(
        tmpdir,
        `floor-${index}`,
        plumbingScript,
        makeRepository(tmpdir, `floor-${index}`, protocol(1)),
      ),
    );
    for (const script of scripts) await script();
    const scriptsInSequence = await time(async () => {
      for (const script of scripts) await script();
    });
    const scriptsAtOnce = await time(() => Promise.all(scripts.map((script) => script())));
    report('8 plumbing scripts at once, own repositories (a lower bound)', {
      value: scriptsAtOnce,
      unit: 'ms',
      baseline: scriptsInSequence,
      baselineName: '8 in sequence',
    });
  }

  // 4. Task workspace creation + removal on a 50k-file repository: snodo's own repository borrowing the
  // objects through an alternate (init, config, checkout; then status, ref checks, delete) against what a
  // linked worktree costs git alone.
  {
    const repository = join(tmpdir, 'large');
    mkdirSync(repository);
    const git = (...args) =>
      execFileSync('git', args, { cwd: repository, stdio: 'ignore', maxBuffer: 1 << 26 });
    git('init', '-q', '-b', 'trunk');
    for (let directory = 0; directory < 500; directory += 1) {
      mkdirSync(join(repository, `d${directory}`));
      for (let file = 0; file < 100; file += 1)
        writeFileSync(join(repository, `d${directory}`, `f${file}.txt`), `${directory}/${file}\n`);
    }
    git('add', '-A');
    git('-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-m', 'large');
    const worktrees = join(tmpdir, 'large-worktrees');
    const snodo = [];
    const raw = [];
    for (let index = 0; index < 5; index += 1) {
      snodo.push(
        await time(async () => {
          const workspace = await createTaskWorkspace({
            repositoryRoot: repository,
            jobId: `j_large${index}`,
            task: 'bench',
            worktreesDirectory: worktrees,
          });
          const removed = await removeTaskWorkspace({
            repositoryRoot: repository,
            worktreesDirectory: worktrees,
            worktreePath: workspace.worktreePath,
            branch: workspace.branch,
            baseRef: workspace.baseRef,
          });
          if (!removed.worktreeRemoved || existsSync(workspace.worktreePath)) {
            throw new Error(`bench: ${workspace.worktreePath} was not removed`);
          }
        }),
      );
      raw.push(
        await time(async () => {
          git('worktree', 'add', '-q', '-b', `raw-${index}`, join(tmpdir, `raw-${index}`), 'HEAD');
          git('worktree', 'remove', join(tmpdir, `raw-${index}`));
        }),
      );
    }
    report('task workspace create+remove, 50k files', {
      value: median(snodo),
      unit: 'ms',
      baseline: median(raw),
      baselineName: 'raw git worktree add+remove',
      aim: 1.5,
    });
  }
}
