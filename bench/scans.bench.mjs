// Scans of untrusted text (issue 14, item 4), each a ratio against the same scan of the same number of
// bytes in ordinary 80-column lines, measured here: a coder controls what it writes, so a long line must
// cost what many short ones cost.
// - the `no_secrets_in_diff` gate on a diff adding one long line, for several shapes of line;
// - the known-value `SecretMatcher` (what `known_secrets_guard` and the audit log's redactor use) and the
//   shape-based `PatternRedactor` (what every coder transcript goes through) on the same text;
// - `known_secrets_guard` on the same diffs.
// Each figure is the median of five runs after a warm-up. SNODO_BENCH_SCAN_BYTES sets the size (default
// 1 MiB): the quadratic patterns this measures against took 7 s on one 64 KB line, and hours on 1 MB.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = join(import.meta.dirname, '..');
const { SecretMatcher, PatternRedactor } = await import(
  pathToFileURL(join(root, 'packages/foundation/dist/index.js')).href
);
// NOTE: the gate predicates are internal to @snodo/core (its dist exports only the door), so they are
// loaded from source; they import the other packages' dist like any user of them would.
const constraints = join(root, 'packages/core/src/gates/constraints');
const { noSecretsInDiff } = await tsImport(join(constraints, 'no-secrets-in-diff.ts'), import.meta.url);
const { knownSecretsGuard } = await tsImport(join(constraints, 'known-secrets-guard.ts'), import.meta.url);

const size = Number(process.env.SNODO_BENCH_SCAN_BYTES ?? 1024 * 1024);
const label = size >= 1024 * 1024 ? `${size / (1024 * 1024)} MB` : `${Math.round(size / 1024)} KB`;

/** Deterministic pseudo-random characters, so every run scans the same text. */
function pseudoRandom(alphabet, length) {
  let state = 0x2545f491;
  let text = '';
  for (let index = 0; index < length; index += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    text += alphabet[(state >>> 16) % alphabet.length];
  }
  return text;
}

function ordinaryLines(bytes) {
  const lines = [];
  let total = 0;
  for (let index = 0; total < bytes; index += 1) {
    const line = `  const value${index} = compute(input, ${index}); // keeps the result for the next step`
      .padEnd(79, ' ')
      .slice(0, 79);
    lines.push(line);
    total += line.length + 1;
  }
  return lines;
}

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const repeat = (unit) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const longLines = {
  'a…': repeat('a'),
  'AKIA…': repeat('AKIA'),
  base64: pseudoRandom(base64Alphabet, size),
  '=…': repeat('='),
  'token=…': repeat('token='),
  'password=" password=…': `password="${repeat(' password=')}`.slice(0, size),
  '-----BEGIN A A…': `-----BEGIN ${repeat('A ')}`.slice(0, size),
  'sk-a…': `sk-${repeat('a')}`.slice(0, size),
  'prose as one line': ordinaryLines(size).join(' ').slice(0, size),
};

function diffAdding(lines) {
  const patch = [
    'diff --git a/big.txt b/big.txt',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/big.txt',
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((line) => `+${line}`),
    '',
  ].join('\n');
  return {
    diff: {
      baseCommit: '0'.repeat(40),
      headCommit: '1'.repeat(40),
      files: [{ path: 'big.txt', status: 'A' }],
      patch,
      exists: () => true,
      readFile: () => undefined,
      symlinks: [],
    },
    task: 'bench',
    knownSecrets: ['sk-bench-known-value-0123456789abcdef', 'bench-signing-key-fedcba9876543210'],
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median of a few runs after one warm-up; one run only when a single run is already slow. */
function time(work) {
  const started = performance.now();
  work();
  const first = performance.now() - started;
  if (first > 2000) return first;
  const samples = [];
  for (let index = 0; index < 5; index += 1) {
    const start = performance.now();
    work();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

function redactWithPatterns(text) {
  const redactor = new PatternRedactor();
  // A coder's output arrives in pipe-sized chunks.
  let output = '';
  for (let offset = 0; offset < text.length; offset += 65536)
    output += redactor.push(text.slice(offset, offset + 65536));
  return output + redactor.flush();
}

export default async function bench({ report }) {
  const ordinary = ordinaryLines(size);
  const ordinaryText = ordinary.join('\n');
  const ordinaryContext = diffAdding(ordinary);
  const matcher = new SecretMatcher();
  for (const secret of ordinaryContext.knownSecrets) matcher.add(secret, '[REDACTED]');

  const scanners = [
    {
      name: 'no_secrets_in_diff',
      ordinary: () => noSecretsInDiff(ordinaryContext, {}),
      long: (line) => {
        const context = diffAdding([line]);
        return () => noSecretsInDiff(context, {});
      },
      every: true,
    },
    {
      name: 'SecretMatcher.redact',
      ordinary: () => matcher.redact(ordinaryText),
      long: (line) => () => matcher.redact(line),
      every: true,
    },
    {
      name: 'PatternRedactor',
      ordinary: () => redactWithPatterns(ordinaryText),
      long: (line) => () => redactWithPatterns(line),
    },
    {
      name: 'known_secrets_guard',
      ordinary: () => knownSecretsGuard(ordinaryContext, {}),
      long: (line) => {
        const context = diffAdding([line]);
        return () => knownSecretsGuard(context, {});
      },
    },
  ];
  for (const scanner of scanners) {
    const baseline = time(scanner.ordinary);
    const figures = Object.entries(longLines).map(([shape, line]) => ({
      shape,
      value: time(scanner.long(line)),
    }));
    const shown = scanner.every
      ? figures
      : [figures.reduce((worst, figure) => (figure.value > worst.value ? figure : worst))];
    for (const { shape, value } of shown) {
      report(`${scanner.name}, one ${label} line (${scanner.every ? shape : `slowest: ${shape}`})`, {
        value,
        unit: 'ms',
        baseline,
        baselineName: `${label} of 80-column lines`,
        aim: 2,
      });
    }
  }
}
