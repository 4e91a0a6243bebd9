import { defineSnodoError } from '@snodo/foundation';

/**
 * The task is empty or only whitespace: there is nothing for a coder to do and nothing for a judge to judge
 * (`snodo run ""` used to run and merge whatever the coder made up). Refused before a job exists; exit 2.
 */
export const TaskEmptyError = defineSnodoError({
  name: 'TaskEmptyError',
  code: 'TASK_EMPTY',
  message: (_options: Record<string, never>) =>
    'The task is empty: nothing was created. Say what to change, e.g. ' +
    '`snodo run "Add a CONTRIBUTING.md with setup steps"`.',
});
export type TaskEmptyError = InstanceType<typeof TaskEmptyError>;
