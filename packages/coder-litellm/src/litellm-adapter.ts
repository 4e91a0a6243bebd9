import {
  CoderAbortedError,
  type CoderAdapterV1,
  CoderCredentialsMissingError,
  type CoderV1Availability,
  type CoderV1AvailabilityOptions,
  type CoderV1Credentials,
  type CoderV1Request,
  type CoderV1Result,
} from '@snodo/coder-sdk';
import {
  type Environment,
  LlmCredentialsMissingError,
  type ParsedModelString,
  type ProvidersSettings,
  parseModelString,
  type ResolvedModel,
  resolveCredentials,
  resolveModel,
} from '@snodo/llm';
import { CoderModelProviderMismatchError } from './errors/coder-model-provider-mismatch-error.js';
import { CoderModelRequiredError } from './errors/coder-model-required-error.js';
import { type LitellmCoderSettings, resolveCoderSettings } from './litellm-coder-settings.js';
import { LitellmTranscript, transcriptSecrets } from './litellm-transcript.js';
import { defaultMaxOutputTokens } from './model-output-limit.js';
import { checkProposals } from './proposal-check.js';
import {
  anthropicCoderRegistration,
  DIRECT_CODER_INSTALL_HINT,
  geminiCoderRegistration,
  litellmRegistration,
  openaiCoderRegistration,
} from './registration.js';
import { runToolLoop } from './tool-loop.js';
import { VERSION } from './version.js';

/** The ids of the coders pinned to one provider (SPEC §4.5); the targets of bare-model routing. */
export type PinnedCoderId = 'openai' | 'anthropic' | 'gemini';

/**
 * What `checkAvailability` may also be told, beyond the contract's options. Core passes neither today;
 * when it passes the run's coding model, a missing key of that model's provider is reported before any
 * worktree is made instead of when the attempt starts.
 */
export interface DirectCoderAvailabilityOptions extends CoderV1AvailabilityOptions {
  /** The coding model of the run (`openai/gpt-4o`). */
  readonly model?: string | undefined;
  /** The request's `coderConfig`, for `providers` keys and endpoints. */
  readonly coderConfig?: Readonly<Record<string, unknown>> | undefined;
}

/** How one of the direct coders differs from the others. */
interface DirectCoderDefinition {
  readonly id: string;
  readonly displayName: string;
  /** The provider a pinned coder runs (as `@snodo/llm` names it: `google` for Gemini); none for litellm. */
  readonly provider: string | undefined;
  readonly credentials: CoderV1Credentials;
  /** A model to show in messages. */
  readonly example: string;
}

const PINNED_CODERS: Readonly<Record<PinnedCoderId, DirectCoderDefinition>> = {
  openai: {
    id: openaiCoderRegistration.id,
    displayName: openaiCoderRegistration.displayName,
    provider: 'openai',
    credentials: { envVars: ['OPENAI_API_KEY'], configKey: 'openai' },
    example: 'openai/gpt-4o',
  },
  anthropic: {
    id: anthropicCoderRegistration.id,
    displayName: anthropicCoderRegistration.displayName,
    provider: 'anthropic',
    credentials: { envVars: ['ANTHROPIC_API_KEY'], configKey: 'anthropic' },
    example: 'anthropic/claude-sonnet-4-5',
  },
  gemini: {
    id: geminiCoderRegistration.id,
    displayName: geminiCoderRegistration.displayName,
    provider: 'google',
    credentials: { envVars: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'], configKey: 'gemini' },
    example: 'gemini/gemini-2.5-pro',
  },
};

/**
 * A `providers.<name>.api_key_env` names the variable to read, but core hands the coder its key under
 * the coder's own variable (`OPENAI_API_KEY`). When the named variable is absent, fall back to the
 * provider's default variables so the injected key is found.
 */
function providersFor(providers: ProvidersSettings, env: Environment): ProvidersSettings {
  const adjusted: Record<string, ProvidersSettings[string]> = {};
  for (const [name, entry] of Object.entries(providers)) {
    const variable = entry.api_key_env;
    const present = variable !== undefined && (env[variable] ?? '').trim() !== '';
    adjusted[name] = variable === undefined || present ? entry : { ...entry, api_key_env: undefined };
  }
  return adjusted;
}

/** The model string read for this coder: a pinned coder takes a bare id as its own provider's model. */
function parseCoderModel(definition: DirectCoderDefinition, model: string): ParsedModelString {
  const trimmed = model.trim();
  const parsed =
    definition.provider !== undefined && !trimmed.includes('/')
      ? { provider: definition.provider, modelId: trimmed }
      : parseModelString(trimmed);
  if (definition.provider !== undefined && parsed.provider !== definition.provider) {
    throw new CoderModelProviderMismatchError({
      coderId: definition.id,
      displayName: definition.displayName,
      expectedProvider: definition.provider,
      model: trimmed,
      actualProvider: parsed.provider,
      example: definition.example,
    });
  }
  return parsed;
}

/** Whether the model's provider has a key, as `checkAvailability` reports it. */
function credentialAvailability(
  provider: string,
  providers: ProvidersSettings,
  env: Environment,
): Pick<CoderV1Availability, 'ready' | 'credentials' | 'reason' | 'fix'> {
  const found = resolveCredentials(provider, { providers: providersFor(providers, env), env });
  if (found.source === 'config') return { ready: true, credentials: 'config' };
  if (found.source === 'environment') return { ready: true, credentials: 'environment' };
  if (!found.required) return { ready: true, credentials: 'not-needed' };
  const variables = found.envVars.length === 0 ? 'its key variable' : found.envVars.join(' or ');
  return {
    ready: false,
    credentials: 'missing',
    reason: `the provider "${provider}" needs an API key and ${variables} is not set`,
    fix: `snodo config add ${provider} <key>`,
  };
}

function buildDirectCoder(
  definition: DirectCoderDefinition,
  factorySettings: LitellmCoderSettings,
): CoderAdapterV1 {
  const { id, displayName } = definition;

  async function checkAvailability(options: DirectCoderAvailabilityOptions): Promise<CoderV1Availability> {
    const base = { installed: true, version: VERSION } as const;
    let settings: ReturnType<typeof resolveCoderSettings>;
    let provider = definition.provider;
    try {
      settings = resolveCoderSettings(id, factorySettings, options.coderConfig ?? {});
      const model = options.model?.trim() || settings.model;
      if (model !== undefined) provider = parseCoderModel(definition, model).provider;
    } catch (error) {
      return { ...base, ready: false, credentials: 'not-needed', reason: (error as Error).message };
    }
    if (provider === undefined) return { ...base, ready: true, credentials: 'not-needed' };
    return { ...base, ...credentialAvailability(provider, settings.providers, options.env) };
  }

  async function doRun(request: CoderV1Request): Promise<CoderV1Result> {
    const started = Date.now();
    if (request.abortSignal.aborted) throw new CoderAbortedError({ coderId: id, displayName });
    const settings = resolveCoderSettings(id, factorySettings, request.coderConfig);
    const modelString = request.model?.trim() || settings.model;
    if (modelString === undefined) {
      throw new CoderModelRequiredError({ coderId: id, displayName, example: definition.example });
    }
    const parsed = parseCoderModel(definition, modelString);
    let model: ResolvedModel;
    try {
      model = await resolveModel(parsed, {
        providers: providersFor(settings.providers, request.env),
        env: request.env,
        ...(settings.prices === undefined ? {} : { prices: settings.prices }),
        ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }),
      });
    } catch (error) {
      if (!LlmCredentialsMissingError.isInstance(error)) throw error;
      throw new CoderCredentialsMissingError({
        coderId: id,
        displayName,
        envVars: error.envVars,
        configKey: error.provider,
        cause: error,
      });
    }

    const timeoutSignal =
      Number.isFinite(request.timeoutMs) && request.timeoutMs > 0
        ? AbortSignal.timeout(request.timeoutMs)
        : new AbortController().signal;
    const transcript = new LitellmTranscript(
      request.transcriptPath,
      transcriptSecrets(request.env, settings.providers),
    );
    transcript.line(
      `=== snodo job ${request.jobId} attempt ${request.attempt} · ${id}@${VERSION} · ${model.modelString} ` +
        `(${model.baseUrl ?? 'provider default endpoint'}) · ${new Date(started).toISOString()} ===`,
    );
    let loop: Awaited<ReturnType<typeof runToolLoop>>;
    try {
      loop = await runToolLoop({
        coderId: id,
        displayName,
        model,
        prompt: request.prompt,
        workspace: request.workspace,
        maxTurns: settings.maxToolTurns,
        maxOutputTokens:
          settings.maxOutputTokens ?? defaultMaxOutputTokens(model.modelString, settings.prices),
        temperature: settings.temperature,
        maxRetries: settings.maxRetries,
        prices: settings.prices,
        abortSignal: AbortSignal.any([request.abortSignal, timeoutSignal]),
        stop: {
          coderId: id,
          displayName,
          userSignal: request.abortSignal,
          timeoutSignal,
          timeoutMs: request.timeoutMs,
        },
        emit: request.emit,
        transcript,
      });
    } catch (error) {
      transcript.finish(
        `=== failed after ${Date.now() - started} ms: ${(error as Error).message ?? error} ===`,
      );
      throw error;
    }
    transcript.finish(
      `=== submitted ${loop.files.length} file(s) by ${loop.submittedBy} after ${loop.turns} turn(s), ` +
        `${Date.now() - started} ms ===`,
    );
    const proposals = checkProposals(request.workspace, loop.files, displayName);
    return {
      status: proposals.length > 0 ? 'changed' : 'no-changes',
      proposals,
      changedFiles: [...new Set(proposals.map((proposal) => proposal.path))].sort(),
      usage: loop.usage,
      transcriptPath: request.transcriptPath,
      cliVersion: VERSION,
      durationMs: Date.now() - started,
    };
  }

  return {
    specificationVersion: 'coder-v1',
    id,
    displayName,
    kind: 'engine-managed',
    modelPrefix: undefined,
    installHint: DIRECT_CODER_INSTALL_HINT,
    credentials: definition.credentials,
    supportsUsage: true,
    supportsAbort: true,
    supportsStreamingEvents: true,
    checkAvailability,
    doRun,
  };
}

/**
 * The `litellm` coder, snodo's default (SPEC §4.5): any `provider/model` the AI SDK reaches through
 * `@snodo/llm`, including any OpenAI-compatible endpoint (a LiteLLM proxy, vLLM, Ollama, OpenRouter) named
 * in config `providers.<name>.base_url`. It reads the worktree through read-only tools and returns file
 * proposals that core checks, writes and commits; it never writes to the worktree itself.
 *
 * `settings` is the `coders.litellm` config entry; the CLI may add `providers` and `prices`. Each request's
 * `coderConfig` wins over it.
 */
export function createLitellmCoder(settings: LitellmCoderSettings = {}): CoderAdapterV1 {
  return buildDirectCoder(
    {
      id: litellmRegistration.id,
      displayName: litellmRegistration.displayName,
      provider: undefined,
      credentials: { envVars: [], optional: true },
      example: 'anthropic/claude-sonnet-4-5',
    },
    settings,
  );
}

/**
 * The same coder pinned to one provider: `openai`, `anthropic` or `gemini` (Google). These are the
 * targets of bare-model routing (`gpt-4o` → openai, `claude-…` → anthropic, `gemini-…` → gemini). A model
 * of another provider is refused with `CODER_MODEL_PROVIDER_MISMATCH`; a bare id is read as the pinned
 * provider's model. Credentials are that provider's variables and `snodo config add <provider>` key.
 */
export function createProviderPinnedCoder(
  id: PinnedCoderId,
  settings: LitellmCoderSettings = {},
): CoderAdapterV1 {
  return buildDirectCoder(PINNED_CODERS[id], settings);
}
