import { defineSnodoError, type SnodoError, type SnodoErrorCodeOf } from '@snodo/foundation';

/** A queue command ran without `queue.url` in `$SNODO_HOME/config.yml`. */
export const QueueUrlMissingError = defineSnodoError({
  name: 'QueueUrlMissingError',
  code: 'QUEUE_URL_MISSING',
  message: (options: { command: string }) =>
    `\`${options.command}\` needs a queue, and config has no \`queue.url\`. ` +
    'Set it with `snodo config set queue.url redis://127.0.0.1:6379` (or postgres://user@host/db).',
});
export type QueueUrlMissingError = InstanceType<typeof QueueUrlMissingError>;

/** `queue.url` is not a redis://, rediss:// or postgres:// URL. */
export const QueueUrlInvalidError = defineSnodoError({
  name: 'QueueUrlInvalidError',
  code: 'QUEUE_URL_INVALID',
  message: (options: { url: string; problem: string }) =>
    `\`queue.url\` (${options.url}) cannot be used: ${options.problem}. ` +
    'Use redis://host:port[/db], rediss://… or postgres://user@host:port/database.',
});
export type QueueUrlInvalidError = InstanceType<typeof QueueUrlInvalidError>;

/** The queue's server did not answer in time. */
export const QueueUnreachableError = defineSnodoError({
  name: 'QueueUnreachableError',
  code: 'QUEUE_UNREACHABLE',
  message: (options: { url: string; reason: string }) =>
    `The queue at ${options.url} does not answer: ${options.reason}. ` +
    'Start the server or fix `queue.url` (`snodo doctor` checks it).',
});
export type QueueUnreachableError = InstanceType<typeof QueueUnreachableError>;

/** A job id that is not in the queue. */
export const QueueJobNotFoundError = defineSnodoError({
  name: 'QueueJobNotFoundError',
  code: 'QUEUE_JOB_NOT_FOUND',
  message: (options: { jobId: string; url: string }) =>
    `The queue at ${options.url} has no job ${options.jobId}. ` +
    '`snodo submit` printed the ids of the jobs it enqueued; a job cancelled before any worker took it is ' +
    'removed from the queue.',
});
export type QueueJobNotFoundError = InstanceType<typeof QueueJobNotFoundError>;

/** A human decision on a queue job that is not waiting for one. */
export const QueueJobStateError = defineSnodoError({
  name: 'QueueJobStateError',
  code: 'QUEUE_JOB_STATE',
  message: (options: { jobId: string; state: string; wanted: string }) =>
    `Job ${options.jobId} is ${options.state}; ${options.wanted}.`,
});
export type QueueJobStateError = InstanceType<typeof QueueJobStateError>;

/** A submission the queue cannot take: no such base on the remote, no protocol at that base. */
export const QueueSubmissionError = defineSnodoError({
  name: 'QueueSubmissionError',
  code: 'QUEUE_SUBMISSION_INVALID',
  message: (options: { problem: string; fix: string }) => `Cannot submit: ${options.problem}. ${options.fix}`,
});
export type QueueSubmissionError = InstanceType<typeof QueueSubmissionError>;

/** A worker cannot start here: the directory is not a clone of the shared remote, or its id is unusable. */
export const WorkerSetupError = defineSnodoError({
  name: 'WorkerSetupError',
  code: 'WORKER_SETUP_INVALID',
  message: (options: { problem: string; fix: string }) =>
    `The worker cannot start: ${options.problem}. ${options.fix}`,
});
export type WorkerSetupError = InstanceType<typeof WorkerSetupError>;

/** Every error code `@snodo/queue` throws; the CLI's exit map must cover each. */
export type QueueErrorCode = SnodoErrorCodeOf<
  | typeof QueueJobNotFoundError
  | typeof QueueJobStateError
  | typeof QueueSubmissionError
  | typeof QueueUnreachableError
  | typeof QueueUrlInvalidError
  | typeof QueueUrlMissingError
  | typeof WorkerSetupError
>;

/** Any error of `@snodo/queue`. */
export type QueueError = SnodoError<QueueErrorCode>;
