export { CoderRegistrationInvalidError } from '../errors.js';
export {
  CoderPackageInvalidError,
  type CoderPackageProblem,
  coderPackageExportNames,
} from './coder-package-invalid-error.js';
export type { CoderRegistration, CoderSettings } from './coder-registration.js';
export { type CoderRegistry, type CoderRegistryOptions, createCoderRegistry } from './coder-registry.js';
export {
  type CommandCoderAdapterFactory,
  type CommandCoderDefinition,
  type CommandCoderOptions,
  createCommandCoderRegistration,
} from './command-coder-registration.js';
export { createCommandTemplateAdapter } from './command-template-coder-adapter.js';
export {
  type ConfigCoderRegistrationsOptions,
  createConfigCoderRegistrations,
  loadConfigCoderRegistrations,
} from './config-coder-registrations.js';
export {
  type CommandTemplatePlaceholder,
  type CommandTemplateValues,
  checkCommandTemplate,
  commandTemplatePlaceholders,
  expandCommandTemplate,
} from './expand-command-template.js';
export { type CoderModelMatch, findCoderByModel } from './find-coder-by-model.js';
export { type CoderExport, findCoderExport } from './find-coder-export.js';
export { findInlineCodePlaceholders, inlineCodeProgramNames } from './find-inline-code-placeholders.js';
export {
  createPackageCoderRegistration,
  loadPackageCoderRegistration,
  type PackageCoderRegistrationOptions,
} from './package-coder-registration.js';
export {
  type CoderNameSource,
  type ResolveCoderNameInput,
  type ResolvedCoderName,
  resolveCoderName,
} from './resolve-coder-name.js';
export { type ResolvedCoderPackage, resolveCoderPackage } from './resolve-coder-package.js';
