import { LlmCredentialsMissingError, parseModelString, resolveCredentials } from '@snodo/llm';
import type { SnodoConfig } from '../config/index.js';
import type { Protocol } from '../protocol/index.js';
import type { ModeChoice } from './choose-mode.js';
import { judgesThatMayRun } from './judges-that-may-run.js';
import type { Selection } from './resolve-selection.js';

/**
 * The first model a run of `selection` would call that has no key — the judging model of the judges that
 * use it, a judge's own `model:`, the classifier's — as the error the run is refused with before a job
 * exists (`LLM_CREDENTIALS_MISSING`: `snodo config add <provider>`), or `undefined`. Without this a missing
 * key surfaced only at the first gate, after a job, a workspace and a branch had been made. Providers that
 * need no key (`mock`, a local server) and model strings the llm package cannot read are left to the
 * call itself.
 */
export function findMissingCredentials(options: {
  protocol: Protocol;
  choice: ModeChoice;
  selection: Selection;
  classifierModel: string | undefined;
  config: SnodoConfig;
  env: Readonly<Record<string, string | undefined>>;
}): LlmCredentialsMissingError | undefined {
  const { protocol, choice, selection, classifierModel } = options;
  const models = new Set<string>();
  if (choice.source === 'classifier' && classifierModel !== undefined) models.add(classifierModel);
  for (const judge of judgesThatMayRun(protocol, choice, classifierModel)) {
    const model = judge.ownModel ?? selection.models.judging.model;
    if (model !== undefined) models.add(model);
  }
  for (const model of models) {
    let provider: string;
    try {
      provider = parseModelString(model).provider;
    } catch {
      continue;
    }
    const found = resolveCredentials(provider, { providers: options.config.providers, env: options.env });
    if (found.required && found.source === 'none') {
      return new LlmCredentialsMissingError({ provider, envVars: found.envVars });
    }
  }
  return undefined;
}
