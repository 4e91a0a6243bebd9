import { startSupervisedProcess } from './start-supervised-process.js';
import type { SupervisedProcessOptions, SupervisedProcessOutcome } from './supervised-process.js';

/**
 * Runs a process under supervision to its end: `startSupervisedProcess` and then its `exited`. What coders
 * and command gates use; a server that must be stopped on request uses `startSupervisedProcess` itself.
 * Rejects only with `SANDBOX_INVALID`; every other ending (a failed start included) is in the outcome.
 */
export async function runSupervisedProcess(
  options: SupervisedProcessOptions,
): Promise<SupervisedProcessOutcome> {
  const supervised = await startSupervisedProcess(options);
  return supervised.exited;
}
