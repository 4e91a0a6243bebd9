import { defineSnodoError } from '@snodo/foundation';

/**
 * A command gate's tool is missing: the command was not found or could not start, or its shell could not
 * find a program (exit 127). The gate could not decide, so the job ends as an environment failure (exit 3)
 * with the command's own words, and the coder is not asked to fix it. The code a job's result carries.
 */
export const GateCommandUnavailableError = defineSnodoError({
  name: 'GateCommandUnavailableError',
  code: 'GATE_COMMAND_UNAVAILABLE',
  message: (options: { gateId: string; reason: string }) =>
    `Gate ${options.gateId} could not run its command: ${options.reason} Install the tool (or prepare the ` +
    'workspace with `execution.setup`), or fix `tooling.test_command` in .snodo/protocol.yml.',
});
export type GateCommandUnavailableError = InstanceType<typeof GateCommandUnavailableError>;
