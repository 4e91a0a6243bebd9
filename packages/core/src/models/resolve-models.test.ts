import { SnodoError } from '@snodo/coder-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CoderRegistration } from '../coders/coder-registration.js';
import { createCoderRegistry } from '../coders/coder-registry.js';
import { type CoderNameSource, resolveCoderName } from '../coders/resolve-coder-name.js';
import { ModelCoderMismatchError } from './model-coder-mismatch-error.js';
import type { ModelsConfig } from './models-config.js';
import { resolveModels } from './resolve-models.js';
import type { ModelSource } from './resolved-models.js';

// The built-in coders as the CLI registers them (SPEC §4.5). Tests may name coders; core's source may not.
const loads = vi.fn(() => {
  throw new Error('routing and model resolution must never load a coder');
});
const register = (registration: Omit<CoderRegistration, 'load'>): CoderRegistration => ({
  ...registration,
  load: loads,
});
const registry = createCoderRegistry({
  defaultCoderId: 'litellm',
  mockCoderId: 'mock',
  registrations: [
    register({ id: 'litellm', displayName: 'LiteLLM', kind: 'engine-managed', usesJudgingModel: true }),
    register({
      id: 'openai',
      displayName: 'OpenAI',
      kind: 'engine-managed',
      usesJudgingModel: true,
      bareModelPrefixes: ['gpt', 'o1', 'o3'],
    }),
    register({
      id: 'anthropic',
      displayName: 'Anthropic',
      kind: 'engine-managed',
      usesJudgingModel: true,
      bareModelPrefixes: ['claude'],
    }),
    register({
      id: 'gemini',
      displayName: 'Gemini',
      kind: 'engine-managed',
      usesJudgingModel: true,
      bareModelPrefixes: ['gemini', 'google/'],
    }),
    register({ id: 'opencode', displayName: 'OpenCode', kind: 'in-place', modelPrefix: 'opencode/' }),
    register({
      id: 'opencode-cli',
      displayName: 'OpenCode CLI',
      kind: 'in-place',
      modelPrefix: 'opencode-cli/',
    }),
    register({ id: 'agy', displayName: 'Antigravity', kind: 'in-place', modelPrefix: 'agy/' }),
    register({
      id: 'claude-code',
      displayName: 'Claude Code',
      kind: 'in-place',
      modelPrefix: 'claude-code/',
    }),
    register({ id: 'codex', displayName: 'Codex', kind: 'in-place', modelPrefix: 'codex/' }),
    register({ id: 'gemini-cli', displayName: 'Gemini CLI', kind: 'in-place', modelPrefix: 'gemini-cli/' }),
    register({ id: 'mock', displayName: 'Mock', kind: 'engine-managed' }),
  ],
});

const judge = 'anthropic/claude-sonnet-4';
const withJudge: ModelsConfig = { llm: { validator: { model: judge } } };

type Pair<Source> = readonly [string | undefined, Source];

interface Case {
  readonly name: string;
  readonly mock?: boolean;
  readonly coderFlag?: string;
  readonly modeCoder?: string;
  readonly modelFlag?: string;
  /** A second, namespaced `-m` for the coder. */
  readonly coderModelFlag?: string;
  readonly config?: ModelsConfig;
  readonly modeCoderConfig?: Readonly<Record<string, unknown>>;
  /** The chosen coder and why; checked even when model resolution then fails. */
  readonly coder?: Pair<CoderNameSource>;
  readonly judging?: Pair<ModelSource>;
  readonly classifier?: Pair<ModelSource>;
  readonly coderModel?: Pair<ModelSource>;
  /** An error code, and text the message must contain. */
  readonly error?: readonly [string, ...string[]];
}

const cases: readonly Case[] = [
  {
    name: 'nothing given: the default coder, no judging model configured',
    coder: ['litellm', 'default'],
    judging: [undefined, 'unset'],
    classifier: [undefined, 'unset'],
    coderModel: [undefined, 'unset'],
  },
  {
    name: 'config model only: the default coder codes and judges with it',
    config: { model: 'openai/gpt-4o' },
    coder: ['litellm', 'default'],
    judging: ['openai/gpt-4o', 'config:model'],
    classifier: ['openai/gpt-4o', 'config:model'],
    coderModel: ['openai/gpt-4o', 'config:model'],
  },
  {
    name: 'gemini-cli/x is a namespace: the CLI coder, prefix stripped, judges from config',
    modelFlag: 'gemini-cli/gemini-2.5-pro',
    config: withJudge,
    coder: ['gemini-cli', 'model-prefix'],
    judging: [judge, 'config:llm.validator.model'],
    coderModel: ['gemini-2.5-pro', 'flag-namespaced'],
  },
  {
    name: 'gemini-x is a bare name: the engine-managed coder, used for judging and coding',
    modelFlag: 'gemini-2.5-flash',
    config: withJudge,
    coder: ['gemini', 'model-name'],
    judging: ['gemini-2.5-flash', 'flag'],
    classifier: ['gemini-2.5-flash', 'flag'],
    coderModel: ['gemini-2.5-flash', 'flag'],
  },
  {
    name: 'opencode-cli/m picks the longer prefix over opencode/',
    modelFlag: 'opencode-cli/m',
    coder: ['opencode-cli', 'model-prefix'],
    coderModel: ['m', 'flag-namespaced'],
  },
  {
    name: 'two -m: a plain judging model and a namespaced coder model, each in its role',
    modelFlag: 'openai/gpt-4o-mini',
    coderModelFlag: 'opencode-cli/openai/gpt-4o',
    coder: ['opencode-cli', 'model-prefix'],
    judging: ['openai/gpt-4o-mini', 'flag'],
    classifier: ['openai/gpt-4o-mini', 'flag'],
    coderModel: ['openai/gpt-4o', 'flag-namespaced'],
  },
  {
    name: "a coder model for another coder than --coder's is refused",
    coderFlag: 'gemini-cli',
    modelFlag: 'openai/gpt-4o-mini',
    coderModelFlag: 'opencode-cli/openai/gpt-4o',
    coder: ['gemini-cli', 'coder-flag'],
    error: ['MODEL_CODER_MISMATCH', 'opencode-cli/openai/gpt-4o'],
  },
  {
    name: 'opencode/m picks the container coder',
    modelFlag: 'opencode/m',
    coder: ['opencode', 'model-prefix'],
    coderModel: ['m', 'flag-namespaced'],
  },
  {
    name: 'claude-code/x is the CLI namespace, not the bare claude name',
    modelFlag: 'claude-code/sonnet',
    coder: ['claude-code', 'model-prefix'],
    judging: [undefined, 'unset'],
    coderModel: ['sonnet', 'flag-namespaced'],
  },
  {
    name: 'a bare claude name routes to the engine-managed coder',
    modelFlag: 'claude-sonnet-4',
    coder: ['anthropic', 'model-name'],
    coderModel: ['claude-sonnet-4', 'flag'],
  },
  { name: 'gpt* routes by bare name', modelFlag: 'gpt-4o', coder: ['openai', 'model-name'] },
  { name: 'o3* routes by bare name', modelFlag: 'o3-mini', coder: ['openai', 'model-name'] },
  {
    name: 'the google/ namespace a registration claims stays a plain model',
    modelFlag: 'google/gemini-2.5-pro',
    coder: ['gemini', 'model-name'],
    judging: ['google/gemini-2.5-pro', 'flag'],
    coderModel: ['google/gemini-2.5-pro', 'flag'],
  },
  {
    name: 'a provider/model string no coder claims keeps the default coder',
    modelFlag: 'openai/gpt-4o',
    coder: ['litellm', 'default'],
    judging: ['openai/gpt-4o', 'flag'],
    coderModel: ['openai/gpt-4o', 'flag'],
  },
  {
    name: 'a namespaced model for another coder than --coder is an error naming both',
    coderFlag: 'agy',
    modelFlag: 'opencode/m',
    coder: ['agy', 'coder-flag'],
    error: ['MODEL_CODER_MISMATCH', 'OpenCode', 'Antigravity', '--coder opencode', '-m agy/<model>'],
  },
  {
    name: 'against an engine-managed --coder the fix is a plain model',
    coderFlag: 'anthropic',
    modelFlag: 'agy/gemini-2.5-pro',
    error: ['MODEL_CODER_MISMATCH', '--coder agy', 'plain model'],
  },
  {
    name: 'a namespaced model matching --coder is stripped',
    coderFlag: 'agy',
    modelFlag: 'agy/gemini-2.5-pro',
    config: withJudge,
    coder: ['agy', 'coder-flag'],
    judging: [judge, 'config:llm.validator.model'],
    coderModel: ['gemini-2.5-pro', 'flag-namespaced'],
  },
  {
    name: "the mode's coder beats a bare model name",
    modeCoder: 'agy',
    modelFlag: 'gpt-4o',
    coder: ['agy', 'protocol-mode'],
    judging: ['gpt-4o', 'flag'],
    coderModel: [undefined, 'cli-default'],
  },
  {
    name: "the mode's coder beats a model prefix; the namespaced model then conflicts",
    modeCoder: 'agy',
    modelFlag: 'opencode-cli/x',
    coder: ['agy', 'protocol-mode'],
    error: ['MODEL_CODER_MISMATCH', 'in .snodo/protocol.yml', 'overrides the mode'],
  },
  {
    name: '--coder beats the mode',
    coderFlag: 'claude-code',
    modeCoder: 'agy',
    coder: ['claude-code', 'coder-flag'],
    coderModel: [undefined, 'cli-default'],
  },
  {
    name: '--mock beats --coder and a namespaced model, and judges offline',
    mock: true,
    coderFlag: 'agy',
    modeCoder: 'codex',
    modelFlag: 'agy/gemini-2.5-pro',
    config: { model: 'openai/gpt-4o', llm: { validator: { model: judge } } },
    coder: ['mock', 'mock-flag'],
    judging: ['mock/pass', 'mock-default'],
    classifier: ['mock/pass', 'mock-default'],
    coderModel: [undefined, 'unset'],
  },
  {
    name: '--mock with a plain -m judges with -m',
    mock: true,
    modelFlag: 'mock/blocker',
    coder: ['mock', 'mock-flag'],
    judging: ['mock/blocker', 'flag'],
  },
  {
    name: 'an unknown --coder is an error listing the registered ids',
    coderFlag: 'cursor',
    error: ['CODER_UNKNOWN', '--coder cursor', 'agy, anthropic, claude-code, codex'],
  },
  {
    name: 'an unknown mode coder is an error naming the protocol',
    modeCoder: 'aider',
    error: ['CODER_UNKNOWN', '.snodo/protocol.yml', 'aider', 'litellm, mock'],
  },
  {
    name: 'an in-place coder never receives a plain -m; the judges do',
    coderFlag: 'codex',
    modelFlag: judge,
    coder: ['codex', 'coder-flag'],
    judging: [judge, 'flag'],
    classifier: [judge, 'flag'],
    coderModel: [undefined, 'cli-default'],
  },
  {
    name: 'an engine-managed coder codes with a plain -m',
    coderFlag: 'litellm',
    modelFlag: 'deepseek/deepseek-chat',
    coder: ['litellm', 'coder-flag'],
    judging: ['deepseek/deepseek-chat', 'flag'],
    coderModel: ['deepseek/deepseek-chat', 'flag'],
  },
  {
    name: 'an in-place coder takes its model from coders.<id>.model',
    coderFlag: 'agy',
    modelFlag: judge,
    config: { model: 'openai/gpt-4o', coders: { agy: { model: 'gemini-2.5-flash' } } },
    judging: [judge, 'flag'],
    coderModel: ['gemini-2.5-flash', 'config:coders.agy.model'],
  },
  {
    name: "a coder's own namespace in coders.<id>.model is stripped",
    coderFlag: 'agy',
    config: { coders: { agy: { model: 'agy/gemini-2.5-flash' } } },
    coderModel: ['gemini-2.5-flash', 'config:coders.agy.model'],
  },
  {
    name: 'a namespaced -m beats coders.<id>.model',
    modelFlag: 'agy/gemini-2.5-pro',
    config: { coders: { agy: { model: 'gemini-2.5-flash' } } },
    coderModel: ['gemini-2.5-pro', 'flag-namespaced'],
  },
  {
    name: 'a plain -m beats coders.<id>.model for an engine-managed coder',
    modelFlag: 'openai/gpt-4o',
    config: { coders: { litellm: { model: 'openai/gpt-4o-mini' } } },
    coderModel: ['openai/gpt-4o', 'flag'],
  },
  {
    name: 'roles from config: validator, classifier, coder, each with its key',
    config: {
      model: 'openai/gpt-4o',
      llm: {
        validator: { model: judge },
        classifier: { model: 'openai/gpt-4o-mini' },
        coder: { model: 'x/y' },
      },
    },
    coder: ['litellm', 'default'],
    judging: [judge, 'config:llm.validator.model'],
    classifier: ['openai/gpt-4o-mini', 'config:llm.classifier.model'],
    coderModel: ['x/y', 'config:llm.coder.model'],
  },
  {
    name: 'the classifier follows the judging model when it has no model of its own',
    config: { llm: { validator: { model: judge } } },
    judging: [judge, 'config:llm.validator.model'],
    classifier: [judge, 'config:llm.validator.model'],
  },
  {
    name: 'a namespaced config model routes to its coder and is never a judging model',
    config: { model: 'codex/gpt-5-codex' },
    coder: ['codex', 'model-prefix'],
    judging: [undefined, 'unset'],
    coderModel: ['gpt-5-codex', 'config:model'],
  },
  {
    name: 'a namespaced config model for another coder is only a default: --coder wins without error',
    coderFlag: 'agy',
    config: { model: 'codex/gpt-5-codex' },
    coder: ['agy', 'coder-flag'],
    coderModel: [undefined, 'cli-default'],
  },
  {
    name: "the mode's coder_config.model is its coder's model",
    modeCoder: 'agy',
    modeCoderConfig: { model: 'gemini-2.5-pro' },
    config: { coders: { agy: { model: 'gemini-2.5-flash' } } },
    coder: ['agy', 'protocol-mode'],
    coderModel: ['gemini-2.5-pro', 'protocol:coder_config.model'],
  },
  {
    name: "the mode's coder_config does not follow --coder to another coder",
    coderFlag: 'codex',
    modeCoder: 'agy',
    modeCoderConfig: { model: 'gemini-2.5-pro' },
    coder: ['codex', 'coder-flag'],
    coderModel: [undefined, 'cli-default'],
  },
  {
    name: 'a bare namespace leaves the model to the CLI',
    modelFlag: 'agy/',
    coder: ['agy', 'model-prefix'],
    coderModel: [undefined, 'flag-namespaced'],
  },
  {
    name: 'blank flags count as not given',
    coderFlag: ' ',
    modelFlag: '  ',
    coder: ['litellm', 'default'],
    judging: [undefined, 'unset'],
  },
];

/** The two steps runTask takes: choose the coder, then the models for it. */
function resolve(row: Case) {
  const config = row.config ?? {};
  const coderName = resolveCoderName({
    registry,
    mock: row.mock === true,
    ...(row.coderFlag === undefined ? {} : { coderFlag: row.coderFlag }),
    ...(row.modeCoder === undefined ? {} : { modeCoder: row.modeCoder, modeId: 'implement' }),
    ...((row.coderModelFlag ?? row.modelFlag ?? config.model)
      ? { model: row.coderModelFlag ?? row.modelFlag ?? config.model }
      : {}),
  });
  const step = {
    coderName,
    models: undefined as ReturnType<typeof resolveModels> | undefined,
    error: undefined as unknown,
  };
  try {
    step.models = resolveModels({
      registry,
      coderRegistration: registry.registration(coderName.coderId),
      mock: row.mock === true,
      config,
      ...(row.modelFlag === undefined ? {} : { modelFlag: row.modelFlag }),
      ...(row.coderModelFlag === undefined ? {} : { coderModelFlag: row.coderModelFlag }),
      ...(row.coderFlag === undefined ? {} : { coderFlag: row.coderFlag }),
      ...(row.modeCoder === undefined ? {} : { modeCoder: row.modeCoder, modeId: 'implement' }),
      ...(row.modeCoderConfig === undefined ? {} : { modeCoderConfig: row.modeCoderConfig }),
    });
  } catch (error) {
    step.error = error;
  }
  return step;
}

describe('coder and model resolution (SPEC §4.3, §4.4)', () => {
  afterEach(() => {
    expect(loads).not.toHaveBeenCalled();
  });

  it('has at least 25 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
  });

  it.each(cases.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    let step: ReturnType<typeof resolve> | undefined;
    let thrown: unknown;
    try {
      step = resolve(row);
    } catch (error) {
      thrown = error;
    }
    if (row.coder !== undefined) {
      expect(step?.coderName).toEqual({ coderId: row.coder[0], source: row.coder[1] });
    }
    const error = thrown ?? step?.error;
    if (row.error !== undefined) {
      const [code, ...fragments] = row.error;
      expect(SnodoError.isInstance(error)).toBe(true);
      expect((error as SnodoError).code).toBe(code);
      for (const fragment of fragments) expect((error as Error).message).toContain(fragment);
      return;
    }
    expect(error).toBeUndefined();
    const models = step?.models;
    if (row.judging !== undefined) {
      expect(models?.judging).toEqual({ model: row.judging[0], source: row.judging[1] });
    }
    if (row.classifier !== undefined) {
      expect(models?.classifier).toEqual({ model: row.classifier[0], source: row.classifier[1] });
    }
    if (row.coderModel !== undefined) {
      expect(models?.coder).toEqual({ model: row.coderModel[0], source: row.coderModel[1] });
    }
  });

  it('raises a ModelCoderMismatchError that carries both coders', () => {
    const { error } = resolve({ name: '', coderFlag: 'codex', modelFlag: 'claude-code/opus' });
    expect(ModelCoderMismatchError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ coderId: 'codex', modelCoderId: 'claude-code', chosenBy: 'coder-flag' });
    expect(SnodoError.isInstance(error)).toBe(true);
  });

  it("refuses a mode's coder_config.model that is not text", () => {
    const { error } = resolve({ name: '', modeCoder: 'agy', modeCoderConfig: { model: 42 } });
    expect((error as SnodoError).code).toBe('CODER_CONFIG_INVALID');
    expect((error as Error).message).toContain('coder_config.model');
  });

  it('refuses --mock when the registry has no mock coder', () => {
    const withoutMock = createCoderRegistry({ defaultCoderId: 'litellm', registrations: registry.list() });
    expect(() => resolveCoderName({ registry: withoutMock, mock: true })).toThrow(
      /--mock needs a mock coder/,
    );
  });
});
