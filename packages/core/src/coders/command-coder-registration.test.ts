import type { CoderAdapterV1 } from '@snodo/coder-sdk';
import { SnodoError } from '@snodo/coder-sdk';
import { describe, expect, it, vi } from 'vitest';
import { createCoderRegistry } from './coder-registry.js';
import type { CommandCoderAdapterFactory, CommandCoderDefinition } from './command-coder-registration.js';
import { createConfigCoderRegistrations } from './config-coder-registrations.js';
import { resolveCoderName } from './resolve-coder-name.js';

// Stands in for an adapter built on the SDK's SubprocessCoderAdapter: it keeps the definition it was given
// so the test can check what a run would spawn.
const built: { definition?: CommandCoderDefinition; settings?: unknown } = {};
const createAdapter: CommandCoderAdapterFactory = vi.fn((definition, settings) => {
  built.definition = definition;
  built.settings = settings;
  return {
    specificationVersion: 'coder-v1',
    id: definition.id,
    displayName: definition.displayName,
    kind: 'in-place',
    modelPrefix: definition.modelPrefix,
    installHint: definition.installHint,
    credentials: { envVars: [] },
    checkAvailability: async () => ({ ready: true, installed: true, credentials: 'not-needed' }),
    doRun: async () => ({ status: 'no-changes', changedFiles: [], usage: null, durationMs: 0 }),
  } satisfies CoderAdapterV1;
});

const coders = {
  mine: {
    command: ['my-cli', '--prompt', '{prompt}', '--model', '{model}', '--dir', '{workspace}'],
    binary: '/opt/my-cli/bin/my-cli',
  },
};

function registryFromConfig(settings: Record<string, Record<string, unknown>>) {
  const registrations = createConfigCoderRegistrations({
    coders: settings,
    resolveFrom: [],
    createCommandAdapter: createAdapter,
  });
  return createCoderRegistry({ registrations, defaultCoderId: 'mine', settings });
}

describe('command-template coders', () => {
  it('registers an in-place coder routed by <id>/ and builds it only on get', async () => {
    vi.mocked(createAdapter).mockClear();
    const registry = registryFromConfig(coders);
    expect(registry.registration('mine')).toMatchObject({ kind: 'in-place', modelPrefix: 'mine/' });
    expect(resolveCoderName({ registry, model: 'mine/fast' })).toEqual({
      coderId: 'mine',
      source: 'model-prefix',
    });
    expect(createAdapter).not.toHaveBeenCalled();

    const coder = await registry.get('mine');
    expect(coder.id).toBe('mine');
    expect(built.settings).toEqual(coders.mine);
    expect(built.definition).toMatchObject({
      binary: 'my-cli',
      displayName: 'mine',
      installHint: expect.stringContaining('coders.mine.binary'),
    });
  });

  it('builds argv with the hostile prompt as one element and without a model pair when there is no model', async () => {
    const registry = registryFromConfig(coders);
    await registry.get('mine');
    const prompt = 'do it; rm -rf / && echo "$HOME" {model}';
    expect(built.definition?.buildArgv(prompt, '/work tree', undefined)).toEqual([
      'my-cli',
      '--prompt',
      prompt,
      '--dir',
      '/work tree',
    ]);
    expect(built.definition?.buildArgv(prompt, '/w', 'fast')).toEqual([
      'my-cli',
      '--prompt',
      prompt,
      '--model',
      'fast',
      '--dir',
      '/w',
    ]);
  });

  it('refuses a broken template at start-up, naming the config key', () => {
    const build = () => registryFromConfig({ mine: { command: ['my-cli', '--ask', '{promt}'] } });
    expect(build).toThrow(/coders\.mine\.command/);
    const error = (() => {
      try {
        build();
      } catch (caught) {
        return caught;
      }
    })();
    expect(SnodoError.isInstance(error)).toBe(true);
    expect((error as SnodoError).code).toBe('CODER_CONFIG_INVALID');
    expect((error as Error).message).toContain('{promt} is not a placeholder');
  });

  it.each([
    [{ command: 'my-cli {prompt}' }, /must be a list/],
    [
      { command: ['my-cli', '{prompt}'], package: 'snodo-coder-mine' },
      /either from a package or from a command/,
    ],
    [{ command: ['my-cli', '{prompt}'], kind: 'engine-managed' }, /always in-place/],
    [{ package: 42 }, /npm package name/],
  ])('refuses config %j', (entry, message) => {
    expect(() => registryFromConfig({ mine: entry })).toThrow(message);
  });
});
