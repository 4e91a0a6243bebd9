import type { CliContext } from '../../cli-context.js';
import { CliError } from '../../errors/cli-error.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { startBackgroundRun } from '../../jobs/start-background-run.js';
import type { RunFlags } from './run-action.js';

/**
 * `snodo run --background`: checks what the foreground run would refuse, starts the run detached, and
 * prints the job id and the commands that follow it (`--json`: `{ jobId, pid, logs }`). Exit 0 once the
 * job exists; the run's own exit code is what `snodo job wait` returns.
 */
export async function backgroundRunAction(
  context: CliContext,
  task: string,
  flags: RunFlags,
): Promise<number> {
  if (flags.dryRun === true) {
    throw new CliError('CLI_USAGE', {
      message:
        '--background and --dry-run do not go together: a dry run creates no job to run in the background.',
      fix: `snodo run "${task.length > 40 ? `${task.slice(0, 40)}…` : task}" --dry-run`,
    });
  }
  const { dryRun: _dryRun, json, background: _background, ...runFlags } = flags;
  const started = await startBackgroundRun({
    task,
    cwd: context.cwd,
    env: context.env,
    homeDirectory: context.homeDirectory,
    flags: runFlags,
  });
  if (json === true) {
    context.stdout.write(`${JSON.stringify(started, null, 2)}\n`);
    return EXIT_CODES.done;
  }
  const { out } = context;
  context.stdout.write(
    [
      `Started ${out.bold(started.jobId)} in the background (pid ${started.pid}).`,
      `  snodo logs ${started.jobId} --follow   ${out.dim('# its progress as it happens')}`,
      `  snodo job wait ${started.jobId}        ${out.dim("# until it ends; exits with the run's code")}`,
      `  snodo job cancel ${started.jobId}      ${out.dim('# stop it')}`,
      '',
    ].join('\n'),
  );
  return EXIT_CODES.done;
}
