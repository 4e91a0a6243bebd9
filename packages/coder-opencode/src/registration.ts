import type { CoderAdapterV1, CoderRegistrationV1 } from '@snodo/coder-sdk';

/**
 * The package's own entry, imported by its name when a coder is loaded. NOTE: by name, not by a relative
 * path: Node resolves a package's own name through its `exports`, and a registry (or a trace of what
 * `snodo coders` loads) sees the coder package itself being loaded. A variable, so neither TypeScript nor
 * the bundler follows it: the entry stays a separate module that `/registration` does not pull in.
 */
const packageName: string = '@snodo/coder-opencode';

/**
 * OpenCode's server as a registry knows it before loading it: the facts (the adapter reads them too, so
 * each exists once) and a lazy `load`, which hands the `coders.opencode` config entry to the adapter as
 * the defaults of every run. Imported alone from `@snodo/coder-opencode/registration`, it loads none of the
 * adapter's code.
 */
export const opencodeRegistration = {
  id: 'opencode',
  displayName: 'OpenCode (server)',
  kind: 'in-place',
  modelPrefix: 'opencode/',
  installHint: 'npm install -g opencode-ai@1',
  load: async (settings: Readonly<Record<string, unknown>>): Promise<CoderAdapterV1> =>
    ((await import(packageName)) as typeof import('./index.js')).createOpencodeCoder({ config: settings }),
} as const satisfies CoderRegistrationV1;
