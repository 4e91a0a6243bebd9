import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { startLiveMemoryProbe } from '../conformance/live-memory-probe.js';
import { defineObligation } from './define-obligation.js';
import type { ObligationScope } from './obligation-scope.js';

/** Room for the adapter's own header, footer and marker lines on top of the cap. */
const transcriptSlackBytes = 64 * 1024;
const mebibyte = 1024 * 1024;

/** Reads the last `bytes` bytes of a file. */
function readTail(filePath: string, bytes: number): string {
  const size = statSync(filePath).size;
  const buffer = Buffer.alloc(Math.min(bytes, size));
  const descriptor = openSync(filePath, 'r');
  try {
    readSync(descriptor, buffer, 0, buffer.length, size - buffer.length);
  } finally {
    closeSync(descriptor);
  }
  return buffer.toString('utf8');
}

/** 50 MB of output: the run completes, the transcript stays capped with a marker, memory stays flat. */
export const outputCapped = defineObligation('output-capped', async (scope: ObligationScope) => {
  const { outputMegabytes, transcriptCapBytes, memoryGrowthLimitBytes } = scope.resolved;
  const scenario = {
    steps: [
      { printMegabytes: outputMegabytes },
      { writeFile: { path: 'src/app.txt', content: 'written after a flood of output\n' } },
      ...scope.finalOutput(),
    ],
  };
  await scope.withRun({ scenario }, async (run) => {
    const probe = startLiveMemoryProbe();
    let result: Awaited<ReturnType<typeof scope.expectSuccess>>;
    let growth = 0;
    try {
      result = await scope.expectSuccess(scope.doRun(run), `a CLI printing ${outputMegabytes} MB`);
    } finally {
      growth = probe.stop();
    }
    scope.check(
      growth <= memoryGrowthLimitBytes,
      `live memory of this process grew by ${Math.round(growth / mebibyte)} MiB while the CLI printed ${outputMegabytes} MB ` +
        `(limit ${Math.round(memoryGrowthLimitBytes / mebibyte)} MiB): the output is being buffered, not streamed.`,
    );
    scope.check(result.status === 'changed', `the run ended with status "${result.status}", not "changed".`);
    const transcript = result.transcriptPath ?? run.transcriptPath;
    scope.check(existsSync(transcript), `there is no transcript at ${transcript}.`);
    const size = statSync(transcript).size;
    scope.check(
      size <= transcriptCapBytes + transcriptSlackBytes,
      `the transcript is ${size} bytes; the cap is ${transcriptCapBytes} bytes (plus ${transcriptSlackBytes} for headers and the marker).`,
    );
    scope.check(
      /truncat/i.test(readTail(transcript, transcriptSlackBytes)),
      'the transcript has no truncation marker (a line saying the output was truncated) after the cap.',
    );
  });
});

/** A run leaves a non-empty transcript holding the CLI's output. */
export const transcriptExists = defineObligation('transcript-exists', async (scope: ObligationScope) => {
  const token = `conformance-transcript-${randomBytes(6).toString('hex')}`;
  const scenario = {
    steps: [
      { stdout: `working on it: ${token}\n` },
      { writeFile: { path: 'src/app.txt', content: 'edited\n' } },
      ...scope.finalOutput(),
    ],
  };
  await scope.withRun({ scenario }, async (run) => {
    const result = await scope.expectSuccess(scope.doRun(run), 'an ordinary run');
    scope.check(typeof result.transcriptPath === 'string', 'result.transcriptPath is missing.');
    scope.check(
      existsSync(result.transcriptPath),
      `result.transcriptPath ${result.transcriptPath} does not exist.`,
    );
    scope.check(
      statSync(result.transcriptPath).size > 0,
      `the transcript ${result.transcriptPath} is empty.`,
    );
    scope.check(
      readFileSync(result.transcriptPath, 'utf8').includes(token),
      `the transcript ${result.transcriptPath} does not hold what the CLI printed on stdout.`,
    );
  });
});
