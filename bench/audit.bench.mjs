// Benchmarks for @snodo/audit (SPEC §11, issue 14): verify speed against sha256sum of the same file (aim
// ≤ 5×), peak memory of a streaming verify over 1M events against an idle node (aim < 70 MB), and append
// throughput with 1 and 4 processes.
// Imports the built package (packages/audit/dist); `pnpm bench` builds first.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const distUrl = pathToFileURL(join(import.meta.dirname, '../packages/audit/dist/index.js')).href;
const audit = await import(distUrl);

/** A realistic pipeline event: a gate verdict with a sentence of justification. */
function eventData(index) {
  return {
    validator: 'security',
    severity: 'pass',
    justification: 'No issues found in the diff; the change only adds a rate limiter to the login route.',
    findings: [],
    attempt: 1,
    duration_ms: 1000 + (index % 5000),
  };
}

/**
 * Writes a log of `count` events: a real genesis through openAuditLog, then valid chained lines built
 * with the package's own serializer and written in large batches (appending one by one through the lock
 * would measure the lock, not the verifier).
 */
async function writeLog(path, count) {
  const log = await audit.openAuditLog(path, {
    repository: { root_commits: ['0'.repeat(40)], path: '/bench' },
  });
  const head = await log.head();
  await log.close();
  let prev = head.hash;
  const descriptor = openSync(path, 'a');
  try {
    let batch = [];
    for (let seq = 1; seq < count; seq++) {
      const body = {
        v: 1,
        seq,
        ts: new Date(1_700_000_000_000 + seq).toISOString(),
        type: 'gate-verdict',
        job: `j_${Math.floor(seq / 50).toString(36)}`,
        actor: 'snodo',
        data: eventData(seq),
        prev,
      };
      const { hash, line } = audit.serializeEvent(body);
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

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

function runNode(args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`child exited ${code}`))));
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

async function benchVerify({ report, tmpdir }) {
  const path = join(tmpdir, 'verify-100k.log');
  await writeLog(path, 100_000);
  const megabytes = statSync(path).size / 1e6;
  const verifyTimes = [];
  const shaTimes = [];
  for (let round = 0; round < 3; round++) {
    let started = performance.now();
    const result = await audit.verifyAuditLog(path);
    verifyTimes.push(performance.now() - started);
    if (!result.ok || result.events !== 100_000)
      throw new Error(`bench log did not verify: ${JSON.stringify(result)}`);
    started = performance.now();
    execFileSync('sha256sum', [path], { stdio: 'ignore' });
    shaTimes.push(performance.now() - started);
  }
  report(`verifyAuditLog, 100k events (${megabytes.toFixed(0)} MB)`, {
    value: median(verifyTimes),
    unit: 'ms',
    baseline: median(shaTimes),
    baselineName: 'sha256sum',
    aim: 5,
  });
}

async function benchMemory({ report, tmpdir }) {
  const path = join(tmpdir, 'verify-1m.log');
  await writeLog(path, 1_000_000);
  const megabytes = statSync(path).size / 1e6;
  const script = join(tmpdir, 'verify-rss.mjs');
  writeFileSync(
    script,
    `const audit = await import(${JSON.stringify(distUrl)});
const result = await audit.verifyAuditLog(process.argv[2]);
if (!result.ok) { console.error(JSON.stringify(result.failure)); process.exit(1); }
console.log(JSON.stringify({ events: result.events, maxRss: process.resourceUsage().maxRSS }));\n`,
  );
  const measured = JSON.parse(await runNode([script, path]));
  if (measured.events !== 1_000_000) throw new Error(`expected 1M events, got ${measured.events}`);
  const idle = JSON.parse(
    await runNode(['-e', 'console.log(JSON.stringify({ maxRss: process.resourceUsage().maxRSS }))']),
  );
  const peak = measured.maxRss / 1024;
  report(
    `verifyAuditLog, 1M events (${megabytes.toFixed(0)} MB), peak RSS (aim < 70 MB: ${peak < 70 ? 'met' : 'NOT met'})`,
    {
      value: peak,
      unit: 'MB',
      baseline: idle.maxRss / 1024,
      baselineName: "idle node -e ''",
    },
  );
}

async function benchAppend({ report, tmpdir }) {
  const path = join(tmpdir, 'append.log');
  const log = await audit.openAuditLog(path, {
    repository: { root_commits: ['0'.repeat(40)], path: '/bench' },
  });
  await log.close();
  const script = join(tmpdir, 'append-worker.mjs');
  // Each worker opens the log, waits for "go" on stdin (so all start together), appends, and reports its
  // own elapsed time; opening (a full verify) is outside the timed part.
  writeFileSync(
    script,
    `const audit = await import(${JSON.stringify(distUrl)});
const [path, count] = [process.argv[2], Number(process.argv[3])];
const log = await audit.openAuditLog(path);
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const started = performance.now();
for (let index = 0; index < count; index++) {
  await log.append({ type: 'bench-append', job: 'j_bench', data: { index, pid: process.pid, note: 'one pipeline event' } });
}
const elapsed = performance.now() - started;
await log.close();
process.stdout.write(JSON.stringify({ elapsed }) + '\\n');
process.exit(0);\n`,
  );
  const perProcess = 4_000;
  async function run(processes) {
    const children = Array.from({ length: processes }, () =>
      spawn(process.execPath, [script, path, String(perProcess)], { stdio: ['pipe', 'pipe', 'inherit'] }),
    );
    const outputs = children.map(
      (child) =>
        new Promise((resolve, reject) => {
          let text = '';
          child.stdout.on('data', (chunk) => {
            text += chunk;
            if (text.includes('ready\n') && !child.readyReported) {
              child.readyReported = true;
              child.emit('ready');
            }
          });
          child.on('exit', (code) =>
            code === 0 ? resolve(text) : reject(new Error(`append worker exited ${code}`)),
          );
        }),
    );
    await Promise.all(children.map((child) => new Promise((resolve) => child.once('ready', resolve))));
    for (const child of children) child.stdin.end('go\n');
    const results = (await Promise.all(outputs)).map((text) => JSON.parse(text.trim().split('\n').pop()));
    const wallMs = Math.max(...results.map((result) => result.elapsed));
    return (processes * perProcess) / (wallMs / 1000);
  }
  const single = await run(1);
  report('append, 1 process', { value: single, unit: 'ops/s' });
  const four = await run(4);
  report('append, 4 processes (total)', {
    value: four,
    unit: 'ops/s',
    baseline: single,
    baselineName: '1 process',
  });
  const verified = await audit.verifyAuditLog(path);
  if (!verified.ok || verified.events !== 1 + 5 * perProcess) {
    throw new Error(
      `append bench log did not verify: ${JSON.stringify(verified.failure ?? verified.events)}`,
    );
  }
}

export default async function ({ report, tmpdir }) {
  await benchVerify({ report, tmpdir });
  await benchMemory({ report, tmpdir });
  await benchAppend({ report, tmpdir });
}
