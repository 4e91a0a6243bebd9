// Benchmark of the judges' shared prompt prefix (SPEC §11, §15): four Anthropic-dialect post-execute
// judges on a 20 KB diff, run through runTask against the fake LLM with prompt caching on
// (`promptCache: true`, which accounts like Anthropic: a `cache_control` breakpoint writes a prefix the
// first time and reads it on a repeat). Billed input = plain input + cache writes × 1.25 + cache reads × 0.1
// (Anthropic's five-minute cache prices), in input-token equivalents, read from what the fake reported on
// the wire. The baseline is the same requests billed without caching: every prompt token at the input price.
// A second figure starts the four judges together (`warm_judge_cache: false`): each then misses and writes.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const { runTask } = await import(join(root, 'packages/core/dist/index.js'));
const { MockCoderAdapterV1 } = await import(join(root, 'packages/coder-sdk/dist/test-kit/index.js'));
const { startFakeLlm } = await import(join(root, 'packages/conformance/dist/fake-llm/index.js'));

const WRITE_PRICE = 1.25;
const READ_PRICE = 0.1;

/** About 20 KB of source: the change the judges review. */
const CHANGE = Array.from(
  { length: 400 },
  (_, index) => `export const limit${index} = ${index * 7}; // rate limit step ${index}`,
).join('\n');

function protocol(warm) {
  const reviewers = ['security', 'architecture', 'performance', 'testing'];
  return `protocol_id: judge-cache-bench
name: Judge cache bench
initial_mode: build
modes:
  - mode_id: build
    name: Build
    tools: [edit]
    validators: [${reviewers.join(', ')}]
validators:
${reviewers
  .map(
    (type) => `  - validator_id: ${type}
    validator_type: ${type}
    evaluation_phase: post_execute
    criteria: [The change is sound from a ${type} point of view.]`,
  )
  .join('\n')}
disagreement_policy: unanimous
execution:
  max_fix_attempts: 0
  warm_judge_cache: ${warm}
`;
}

function makeRepository(directory, protocolText) {
  const repository = join(directory, 'repository');
  mkdirSync(join(repository, '.snodo'), { recursive: true });
  const git = (...args) => execFileSync('git', args, { cwd: repository, stdio: 'ignore' });
  git('init', '-q', '-b', 'trunk');
  writeFileSync(join(repository, 'README.md'), '# bench\n');
  writeFileSync(join(repository, '.snodo/protocol.yml'), protocolText);
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '-m', 'init');
  return repository;
}

/** Runs the four judges once and returns the billed input with and without caching, from the wire. */
async function measure(tmpdir, warm) {
  const verdict = { verdict: { severity: 'pass', justification: 'ok', findings: [] }, delayMs: 100 };
  const llm = await startFakeLlm({ promptCache: true, script: [verdict, verdict, verdict, verdict] });
  try {
    const directory = join(tmpdir, warm ? 'warm' : 'together');
    const home = join(directory, 'snodo-home');
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(home, 'config.yml'),
      `providers:\n  anthropic:\n    base_url: ${llm.sdkBaseUrl.anthropic}\n    api_key: bench-key\n`,
      { mode: 0o600 },
    );
    const coder = new MockCoderAdapterV1({
      id: 'writer',
      doRun: {
        status: 'changed',
        proposals: [{ path: 'src/limits.ts', action: 'write', content: `${CHANGE}\n` }],
        changedFiles: ['src/limits.ts'],
        usage: null,
        durationMs: 1,
      },
    });
    const coders = {
      registrations: [{ id: 'writer', displayName: 'Writer', kind: coder.kind, load: () => coder }],
      defaultCoderId: 'writer',
    };
    const handle = runTask({
      task: 'add the rate limit table',
      cwd: makeRepository(directory, protocol(warm)),
      env: { PATH: process.env.PATH, HOME: directory, SNODO_HOME: home },
      coders,
      coder: 'writer',
      model: 'anthropic/claude-sonnet-4-5',
    });
    const result = await handle.result;
    if (result.status !== 'done') throw new Error(`bench run ended ${result.outcome}: ${result.summary}`);
    const accounts = llm.mainRequests().map((request) => request.promptCache);
    if (accounts.length !== 4 || accounts.some((account) => account === undefined)) {
      throw new Error(`expected 4 judge requests with a cache account, got ${accounts.length}`);
    }
    let billed = 0;
    let uncached = 0;
    for (const { promptTokens, readTokens, writeTokens } of accounts) {
      billed += promptTokens - readTokens - writeTokens + writeTokens * WRITE_PRICE + readTokens * READ_PRICE;
      uncached += promptTokens;
    }
    return { billed: Math.round(billed), uncached };
  } finally {
    await llm.close();
  }
}

export default async function bench({ report, tmpdir }) {
  const warm = await measure(tmpdir, true);
  report('4 judges, 20 KB diff, billed input (shared prefix cached, one judge warms)', {
    value: warm.billed,
    unit: 'tokens',
    baseline: warm.uncached,
    baselineName: 'without caching',
    aim: 0.5,
  });
  const together = await measure(tmpdir, false);
  report('4 judges, 20 KB diff, billed input (cached, all four started together)', {
    value: together.billed,
    unit: 'tokens',
    baseline: together.uncached,
    baselineName: 'without caching',
  });
}
