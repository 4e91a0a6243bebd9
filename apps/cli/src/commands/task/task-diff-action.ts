import { diffJob } from '@snodo/core';
import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { resolveJobId } from '../../jobs/resolve-job-id.js';
import type { Palette } from '../../output/palette.js';
import { taskOptions } from './task-options.js';

/** The flags of `snodo task diff`. */
export interface TaskDiffFlags {
  readonly stat?: boolean | undefined;
  readonly json?: boolean | undefined;
}

/** Colours a unified diff the way `git diff` does, when stdout is a terminal. */
function colorPatch(patch: string, palette: Palette): string {
  return patch
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return palette.bold(line);
      if (line.startsWith('+')) return palette.green(line);
      if (line.startsWith('-')) return palette.red(line);
      if (line.startsWith('@@')) return palette.cyan(line);
      return line;
    })
    .join('\n');
}

/** `snodo task diff <job>`: the job's change from its base commit to its branch (or merge) tip. */
export async function taskDiffAction(
  context: CliContext,
  reference: string,
  flags: TaskDiffFlags,
): Promise<number> {
  const { jobId } = await resolveJobId(context.cwd, reference);
  const diff = await diffJob({ ...taskOptions(context), jobId });
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify(diff, null, 2)}\n`);
  } else if (flags.stat === true) {
    for (const file of diff.files) {
      const renamed = file.previousPath === undefined ? '' : ` (from ${file.previousPath})`;
      context.stdout.write(`${file.status}\t${file.path}${renamed}\n`);
    }
  } else {
    context.stdout.write(colorPatch(diff.patch, context.out));
    if (!diff.patch.endsWith('\n') && diff.patch !== '') context.stdout.write('\n');
  }
  return EXIT_CODES.done;
}
