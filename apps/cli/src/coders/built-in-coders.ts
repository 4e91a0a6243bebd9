import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CoderCatalog, CoderRegistration } from '@snodo/core';

/**
 * The coders that ship with the `snodo` command, one registration object per coder. Each `load` imports
 * its package only when that coder is needed (a run, or `snodo coders` asking whether it is ready), so
 * `snodo --help` and routing never load one. To add a coder: depend on its package (`"@snodo/coder-<id>": "workspace:^"`) and add an entry here
 * with the routing facts (`modelPrefix`, `bareModelPrefixes`, `usesJudgingModel`) the coder needs.
 */
export const builtInCoderRegistrations: readonly CoderRegistration[] = [
  {
    id: 'mock',
    displayName: 'Mock coder',
    kind: 'engine-managed',
    installHint: 'The mock coder is built into snodo; there is nothing to install.',
    load: async () => (await import('@snodo/coder-mock')).createMockCoder(),
  },
];

/** Where third-party coder packages are looked for after the repository: next to this installed CLI. */
const cliPackageDirectory = dirname(dirname(fileURLToPath(import.meta.url)));

/** The catalog the CLI hands to core for every run and every `snodo task …` command. */
export const builtInCoders: CoderCatalog = {
  registrations: builtInCoderRegistrations,
  defaultCoderId: 'mock', // TODO(lead): 'litellm' once @snodo/coder-litellm is registered above.
  mockCoderId: 'mock',
  packageSearchDirectories: [cliPackageDirectory],
};
