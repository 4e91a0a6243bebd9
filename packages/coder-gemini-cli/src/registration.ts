import type { CoderAdapterV1, CoderRegistrationV1 } from '@snodo/coder-sdk';

/**
 * The package's own entry, imported by its name when a coder is loaded. NOTE: by name, not by a relative
 * path: Node resolves a package's own name through its `exports`, and a registry (or a trace of what
 * `snodo coders` loads) sees the coder package itself being loaded. A variable, so neither TypeScript nor
 * the bundler follows it: the entry stays a separate module that `/registration` does not pull in.
 */
const packageName: string = '@snodo/coder-gemini-cli';

/**
 * Gemini CLI as a registry knows it before loading it: the facts (the adapter reads them too, so each
 * exists once) and a lazy `load`. Imported alone from `@snodo/coder-gemini-cli/registration`, it loads
 * none of the adapter's code.
 */
export const geminiCliRegistration = {
  id: 'gemini-cli',
  displayName: 'Gemini CLI',
  kind: 'in-place',
  modelPrefix: 'gemini-cli/',
  installHint: 'npm install -g @google/gemini-cli@0.61.0',
  load: async (): Promise<CoderAdapterV1> =>
    ((await import(packageName)) as typeof import('./index.js')).createGeminiCliCoder(),
} as const satisfies CoderRegistrationV1;
