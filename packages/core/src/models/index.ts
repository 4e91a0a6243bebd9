export { type MismatchedCoder, ModelCoderMismatchError } from './model-coder-mismatch-error.js';
export type { ModelRoleConfig, ModelsConfig } from './models-config.js';
export { mockJudgingModel, type ResolveModelsInput, resolveModels } from './resolve-models.js';
export type { ModelSource, ResolvedModel, ResolvedModels } from './resolved-models.js';
