import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agyRegistration } from '@snodo/coder-agy/registration';
import { claudeCodeRegistration } from '@snodo/coder-claude-code/registration';
import { codexRegistration } from '@snodo/coder-codex/registration';
import { geminiCliRegistration } from '@snodo/coder-gemini-cli/registration';
import { litellmRegistrations } from '@snodo/coder-litellm/registration';
import { mockRegistration } from '@snodo/coder-mock/registration';
import { opencodeRegistration } from '@snodo/coder-opencode/registration';
import { opencodeCliRegistration } from '@snodo/coder-opencode-cli/registration';
import type { CoderCatalog, CoderRegistration } from '@snodo/core';

/**
 * The coders that ship with the `snodo` command: each coder package's own registration object (its
 * `/registration` module holds only the facts and a lazy `load`), so every fact (id, display name, model
 * prefix, install hint, routing) is written once, in the coder's package, and read by its adapter too.
 * `load` imports the coder's code only when that coder is needed (a run, or `snodo coders` asking whether
 * it is ready), so `snodo --help` and routing never load one. To add a coder: depend on its package
 * (`"@snodo/coder-<id>": "workspace:^"`) and add its registration here.
 */
export const builtInCoderRegistrations: readonly CoderRegistration[] = [
  mockRegistration,
  // Direct LLM coders: the model proposes files, snodo writes them. The coding model decides the provider.
  ...litellmRegistrations,
  // Coders that run a coding agent and let it edit the worktree; snodo commits what it changed.
  opencodeRegistration,
  claudeCodeRegistration,
  codexRegistration,
  geminiCliRegistration,
  opencodeCliRegistration,
  agyRegistration,
];

/** Where third-party coder packages are looked for after the repository: next to this installed CLI. */
const cliPackageDirectory = dirname(dirname(fileURLToPath(import.meta.url)));

/** The catalog the CLI hands to core for every run and every `snodo task …` command. */
export const builtInCoders: CoderCatalog = {
  registrations: builtInCoderRegistrations,
  defaultCoderId: 'litellm',
  mockCoderId: 'mock',
  packageSearchDirectories: [cliPackageDirectory],
};
