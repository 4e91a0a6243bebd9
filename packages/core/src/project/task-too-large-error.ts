import { defineSnodoError } from '@snodo/foundation';

/**
 * The most a task may hold, in UTF-8 bytes: 256 KiB, some 60 000 words. A task says what to change; it
 * is copied whole into the classifier's and every judge's prompt, the coder's prompt, the job's record and
 * the audit log, and the coder's commit carries it, so a 1 MB task kept the post-gates busy for minutes.
 * Material longer than that (a log, a specification) belongs in a file the task names.
 */
export const MAX_TASK_BYTES = 256 * 1024;

/** The task is longer than `MAX_TASK_BYTES`. Refused before a job exists; exit 2. */
export const TaskTooLargeError = defineSnodoError({
  name: 'TaskTooLargeError',
  code: 'TASK_TOO_LARGE',
  message: (options: { bytes: number }) =>
    `The task is ${Math.ceil(options.bytes / 1024)} KiB, above the ${MAX_TASK_BYTES / 1024} KiB a task may ` +
    'be: nothing was created. Say what to change in a few paragraphs and put long material (a log, a ' +
    'specification) in a file of the repository that the task names, e.g. ' +
    '`snodo run "Fix the failure described in docs/ci-failure.md"`.',
});
export type TaskTooLargeError = InstanceType<typeof TaskTooLargeError>;
