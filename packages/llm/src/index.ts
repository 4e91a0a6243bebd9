export {
  type JudgeTurnsExhaustedDetails,
  JudgeTurnsExhaustedError,
} from './errors/judge-turns-exhausted-error.js';
export { type LlmCallFailedDetails, LlmCallFailedError } from './errors/llm-call-failed-error.js';
export { LlmCredentialsMissingError } from './errors/llm-credentials-missing-error.js';
export { LlmError, type LlmErrorOptions } from './errors/llm-error.js';
export {
  ACCEPTED_MODEL_STRING_FORMS,
  LlmModelStringInvalidError,
} from './errors/llm-model-string-invalid-error.js';
export { VerdictInvalidError } from './errors/verdict-invalid-error.js';
export {
  type InvalidOutputDetails,
  LlmCallAbortedError,
  type LlmErrorCode,
  LlmOutputInvalidError,
  LlmProviderNotInstalledError,
} from './errors.js';
export {
  type GenerateStructuredOptions,
  type GenerateStructuredResult,
  generateStructured,
  type StructuredCallOptions,
} from './generate-structured.js';
export {
  type GenerateVerdictOptions,
  type GenerateVerdictResult,
  generateVerdict,
} from './generate-verdict.js';
export {
  DEFAULT_JUDGE_MAX_TURNS,
  type GenerateVerdictWithToolsOptions,
  type GenerateVerdictWithToolsResult,
  generateVerdictWithTools,
  type VerdictTool,
} from './generate-verdict-with-tools.js';
export { PROVIDER_EXAMPLES } from './known-providers.js';
export type {
  Environment,
  LlmSettings,
  ModelPriceOverride,
  PriceOverrides,
  ProviderSettings,
  ProvidersSettings,
} from './llm-settings.js';
export { type LlmUsage, normalizeUsage, sumUsage } from './llm-usage.js';
export {
  createMockModel,
  isMockModelId,
  MOCK_MODEL_IDS,
  type MockSeverity,
  mockJustification,
} from './mock-model.js';
export { formatModelString, type ParsedModelString, parseModelString } from './parse-model-string.js';
export {
  type CatalogEntry,
  computeCostUsd,
  listCatalog,
  lookupPrice,
  type ModelPrice,
  type PriceCatalogInfo,
  type PriceLookup,
  priceCatalogInfo,
  type TokenCounts,
} from './price-catalog.js';
export {
  buildPromptCacheRequest,
  type CacheablePrompt,
  type PromptCacheRequest,
} from './prompt-cache.js';
export {
  configuredProviderName,
  type ProviderCredentials,
  providerOfConfigEntry,
  resolveCredentials,
} from './resolve-credentials.js';
export { type ModelApi, type ResolvedModel, resolveModel } from './resolve-model.js';
export { type AiErrorClasses, toLlmCallError } from './to-llm-call-error.js';
export {
  toVerdict,
  type Verdict,
  type VerdictAnswer,
  type VerdictFinding,
  type VerdictSeverity,
  verdictAnswerSchema,
} from './verdict.js';
