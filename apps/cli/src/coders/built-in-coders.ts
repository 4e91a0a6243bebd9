import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CoderCatalog, CoderRegistration } from '@snodo/core';

/**
 * The coders that ship with the `snodo` command, one registration object per coder. Each `load` imports
 * its package only when that coder is needed (a run, or `snodo coders` asking whether it is ready), so
 * `snodo --help` and routing never load one. To add a coder: depend on its package (`"@snodo/coder-<id>": "workspace:^"`) and add an entry here
 * with the routing facts (`modelPrefix`, `bareModelPrefixes`, `usesJudgingModel`) the coder needs.
 */
const directLlmHint =
  "Built into snodo; it needs a key for its model's provider: snodo config add <provider> <key>.";

export const builtInCoderRegistrations: readonly CoderRegistration[] = [
  {
    id: 'mock',
    displayName: 'Mock coder',
    kind: 'engine-managed',
    installHint: 'The mock coder is built into snodo; there is nothing to install.',
    load: async () => (await import('@snodo/coder-mock')).createMockCoder(),
  },
  // Direct LLM coders: the model proposes files, snodo writes them. The coding model decides the provider.
  {
    id: 'litellm',
    displayName: 'LLM coder',
    kind: 'engine-managed',
    usesJudgingModel: true,
    installHint: directLlmHint,
    load: async () => (await import('@snodo/coder-litellm')).createLitellmCoder(),
  },
  {
    id: 'openai',
    displayName: 'OpenAI coder',
    kind: 'engine-managed',
    usesJudgingModel: true,
    bareModelPrefixes: ['gpt', 'o1', 'o3', 'o4'],
    installHint: directLlmHint,
    load: async () => (await import('@snodo/coder-litellm')).createProviderPinnedCoder('openai'),
  },
  {
    id: 'anthropic',
    displayName: 'Anthropic coder',
    kind: 'engine-managed',
    usesJudgingModel: true,
    bareModelPrefixes: ['claude'],
    installHint: directLlmHint,
    load: async () => (await import('@snodo/coder-litellm')).createProviderPinnedCoder('anthropic'),
  },
  {
    id: 'gemini',
    displayName: 'Gemini coder',
    kind: 'engine-managed',
    usesJudgingModel: true,
    bareModelPrefixes: ['gemini', 'google/'],
    installHint: directLlmHint,
    load: async () => (await import('@snodo/coder-litellm')).createProviderPinnedCoder('gemini'),
  },
  // Coders that run a coding agent and let it edit the worktree; snodo commits what it changed.
  {
    id: 'opencode',
    displayName: 'OpenCode (server)',
    kind: 'in-place',
    modelPrefix: 'opencode/',
    installHint: 'npm install -g opencode-ai@1',
    load: async (settings) =>
      (await import('@snodo/coder-opencode')).createOpencodeCoder({ config: settings }),
  },
  {
    id: 'claude-code',
    displayName: 'Claude Code',
    kind: 'in-place',
    modelPrefix: 'claude-code/',
    installHint: 'npm install -g @anthropic-ai/claude-code',
    load: async () => (await import('@snodo/coder-claude-code')).createClaudeCodeCoder(),
  },
  {
    id: 'codex',
    displayName: 'Codex',
    kind: 'in-place',
    modelPrefix: 'codex/',
    installHint: 'npm install -g @openai/codex',
    load: async () => (await import('@snodo/coder-codex')).createCodexCoder(),
  },
  {
    id: 'gemini-cli',
    displayName: 'Gemini CLI',
    kind: 'in-place',
    modelPrefix: 'gemini-cli/',
    installHint: 'npm install -g @google/gemini-cli@0.61.0',
    load: async () => (await import('@snodo/coder-gemini-cli')).createGeminiCliCoder(),
  },
  {
    id: 'opencode-cli',
    displayName: 'OpenCode CLI',
    kind: 'in-place',
    modelPrefix: 'opencode-cli/',
    installHint: 'npm install -g opencode-ai@1.18.33',
    load: async () => (await import('@snodo/coder-opencode-cli')).createOpencodeCliCoder(),
  },
  {
    id: 'agy',
    displayName: 'Antigravity CLI',
    kind: 'in-place',
    modelPrefix: 'agy/',
    installHint:
      'Install the Antigravity CLI from https://antigravity.google (it is not on npm; the installer puts `agy` in ~/.local/bin)',
    load: async () => (await import('@snodo/coder-agy')).createAgyCoder(),
  },
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
