import { openProject, resolveSelection } from '@snodo/core';
import type { CliContext } from '../cli-context.js';
import { builtInCoders } from '../coders/built-in-coders.js';
import { type ModelFlags, splitModelFlags } from './option-parsers-models.js';

/**
 * Reads repeated `-m` values with core's own rule for what a model string names: a model is a coder's when
 * core's selection, given it alone, takes it as no judging model (it is in a registered coder's namespace,
 * config-declared coders included). Loaded only when `-m` is given more than once.
 */
export async function readModelFlags(context: CliContext, values: readonly string[]): Promise<ModelFlags> {
  const project = await openProject({
    cwd: context.cwd,
    env: context.env,
    homeDirectory: context.homeDirectory,
    coders: builtInCoders,
  });
  const isCoderModel = (model: string) => {
    try {
      return resolveSelection(project, { model }).models.judging.source !== 'flag';
    } catch {
      // Core refuses a model it cannot route; `snodo run` reports it with the model as the only `-m`.
      return false;
    }
  };
  return splitModelFlags(values, isCoderModel);
}
