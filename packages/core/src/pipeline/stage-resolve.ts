import {
  availabilityError,
  buildCoderEnvironment,
  type CoderAdapterV1,
  type CoderV1Availability,
} from '@snodo/coder-sdk';
import type { CoderRegistration, ResolvedCoderName } from '../coders/index.js';
import type { ResolvedModels } from '../models/index.js';
import { resolveCoderTimeout, type Sourced } from '../project/coder-timeout.js';
import { resolveSelection } from '../project/resolve-selection.js';
import type { ProtocolMode } from '../protocol/index.js';
import { lookUpCoderCredentials, lookUpModelCredentials } from './coder-credentials.js';
import type { RunContext } from './run-context.js';
import type { RunTaskOptions } from './run-task-options.js';

/** The coder that will run, its models, and the environment it runs with. */
export interface ResolvedCoder {
  readonly registration: CoderRegistration;
  readonly adapter: CoderAdapterV1;
  readonly selection: ResolvedCoderName;
  readonly models: ResolvedModels;
  /** Allow-listed environment plus this coder's credentials and `coders.<id>.env`. */
  readonly env: Readonly<Record<string, string>>;
  readonly credentialSource: 'config' | 'environment' | 'none';
  readonly availability: CoderV1Availability;
  /** `coders.<id>` from config under the mode's `coder_config` (the request's `coderConfig`). */
  readonly coderConfig: Readonly<Record<string, unknown>>;
  /** The limit per attempt in seconds and its source (`flag`, `protocol:coder_config…`, `config:…`). */
  readonly timeout: Sourced<number>;
  /** Secret values injected into the coder's environment, to mask in the audit log and transcripts. */
  readonly secrets: readonly string[];
}

/**
 * Picks the coder and models (SPEC §4.3, §4.4) and checks the coder can run here before anything is
 * created: a missing binary or key fails now with the quick-setup text.
 */
export async function resolveCoder(
  context: RunContext,
  options: RunTaskOptions,
  mode: ProtocolMode | undefined,
): Promise<ResolvedCoder> {
  const {
    coder: selection,
    registration,
    models,
  } = resolveSelection(context, {
    coder: options.coder,
    model: options.model,
    coderModel: options.coderModel,
    mock: options.mock,
    mode,
  });
  const adapter = await context.registry.get(selection.coderId);
  const settings = context.config.coders?.[adapter.id] ?? {};
  const credentials = registration.usesJudgingModel
    ? lookUpModelCredentials(models.coder.model, context.config, context.env)
    : // The coder model names the provider whose key a multi-provider CLI gets (`<prefix>/<provider>/…`).
      lookUpCoderCredentials(adapter, context.config, context.env, models.coder.model);
  const extra = settings.env ?? {};
  const env = buildCoderEnvironment({
    parentEnv: context.env,
    credentials: { ...extra, ...credentials.variables },
  });
  // The mode only configures the coder it names; a mode naming another coder leaves its settings out.
  const modeConfig = mode?.coder === undefined || mode.coder === adapter.id ? (mode?.coder_config ?? {}) : {};
  // Coders that call models themselves get the model settings of `llm.coder` and the providers
  // (keys included); coders that run a CLI never see other providers' keys.
  const llmSettings = registration.usesJudgingModel
    ? {
        providers: context.config.providers ?? {},
        prices: context.config.prices ?? {},
        max_tokens: context.config.llm?.coder?.max_tokens,
        temperature: context.config.llm?.coder?.temperature,
        max_tool_turns: context.config.llm?.coder?.max_tool_turns,
      }
    : {};
  const coderConfig = withoutUndefined({ ...llmSettings, ...settings, ...modeConfig });
  const availability = await adapter.checkAvailability({
    env,
    ...(settings.binary ? { binaryPath: settings.binary } : {}),
    ...(models.coder.model ? { model: models.coder.model } : {}),
    coderConfig,
  });
  const notReady = availabilityError(adapter, availability);
  if (notReady) throw notReady;
  return {
    registration,
    adapter,
    selection,
    models,
    env,
    credentialSource: credentials.source,
    availability,
    coderConfig,
    timeout: resolveCoderTimeout({
      flag: options.timeoutSeconds,
      coderId: adapter.id,
      mode,
      config: context.config,
      protocol: context.protocol,
    }),
    secrets: [...Object.values(credentials.variables), ...Object.values(extra)].filter(
      (value) => value.length >= 8,
    ),
  };
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
