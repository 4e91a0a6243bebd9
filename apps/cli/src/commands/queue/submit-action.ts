import type { CliContext } from '../../cli-context.js';
import { EXIT_CODES } from '../../exit-codes.js';
import { actorName, requireQueueConnection } from './queue-settings.js';

/** The flags of `snodo submit`. */
export interface SubmitFlags {
  readonly base?: string | undefined;
  readonly remote?: string | undefined;
  readonly id?: string | undefined;
  readonly coder?: string | undefined;
  readonly model?: string | undefined;
  readonly mock?: boolean | undefined;
  readonly mode?: string | undefined;
  readonly timeout?: number | undefined;
  readonly maxCost?: number | undefined;
  readonly maxTokens?: number | undefined;
  readonly json?: boolean | undefined;
}

/** `snodo submit`: enqueues the task and prints its job id (the queue's), on stdout alone unless `--json`. */
export async function submitAction(context: CliContext, task: string, flags: SubmitFlags): Promise<number> {
  const { connection } = await requireQueueConnection(context, 'snodo submit');
  const { submitTask } = await import('@snodo/queue');
  const result = await submitTask({
    connection,
    cwd: context.cwd,
    task,
    base: flags.base,
    remote: flags.remote,
    id: flags.id,
    actor: actorName(context),
    options: {
      ...(flags.coder === undefined ? {} : { coder: flags.coder }),
      ...(flags.model === undefined ? {} : { model: flags.model }),
      ...(flags.mock === true ? { mock: true } : {}),
      ...(flags.mode === undefined ? {} : { mode: flags.mode }),
      ...(flags.timeout === undefined ? {} : { timeoutSeconds: flags.timeout }),
      ...(flags.maxCost === undefined ? {} : { maxCostUsd: flags.maxCost }),
      ...(flags.maxTokens === undefined ? {} : { maxTokens: flags.maxTokens }),
    },
  });
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    context.stdout.write(`${result.jobId}\n`);
    const what = result.created ? 'queued' : 'already queued (nothing added)';
    context.stderr.write(
      context.err.dim(
        `${what}: ${result.base} at ${result.baseCommit.slice(0, 12)} on ${connection.displayUrl}\n`,
      ),
    );
  }
  return EXIT_CODES.done;
}
