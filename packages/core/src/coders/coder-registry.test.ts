import { type CoderAdapterV1, SnodoError } from '@snodo/coder-sdk';
import { describe, expect, it, vi } from 'vitest';
import { CoderRegistrationInvalidError } from '../errors.js';
import type { CoderRegistration } from './coder-registration.js';
import { createCoderRegistry } from './coder-registry.js';
import { resolveCoderName } from './resolve-coder-name.js';

/** A minimal coder-v1 adapter, as a coder package would export it. */
function adapter(id: string, overrides: Record<string, unknown> = {}): CoderAdapterV1 {
  return {
    specificationVersion: 'coder-v1',
    id,
    displayName: id,
    kind: 'in-place',
    modelPrefix: `${id}/`,
    installHint: `install ${id}`,
    credentials: { envVars: [] },
    checkAvailability: async () => ({ ready: true, installed: true, credentials: 'not-needed' }),
    doRun: async () => ({ status: 'no-changes', changedFiles: [], usage: null, durationMs: 0 }),
    ...overrides,
  } as CoderAdapterV1;
}

function registration(id: string, load: CoderRegistration['load'], extra: Partial<CoderRegistration> = {}) {
  return {
    id,
    displayName: id,
    kind: 'in-place',
    modelPrefix: `${id}/`,
    load,
    ...extra,
  } as CoderRegistration;
}

const mock = registration('mock', () => adapter('mock', { kind: 'engine-managed' }), {
  kind: 'engine-managed',
});

function expectCode(error: unknown, code: string): void {
  expect(SnodoError.isInstance(error)).toBe(true);
  expect((error as SnodoError).code).toBe(code);
}

describe('createCoderRegistry', () => {
  it('loads nothing to list, route or look up, and loads once on get', async () => {
    const load = vi.fn(async () => adapter('agy'));
    const registry = createCoderRegistry({
      registrations: [registration('agy', load), mock],
      defaultCoderId: 'mock',
      mockCoderId: 'mock',
    });

    expect(registry.list().map((entry) => entry.id)).toEqual(['agy', 'mock']);
    expect(registry.has('agy')).toBe(true);
    expect(registry.registration('agy').displayName).toBe('agy');
    expect(resolveCoderName({ registry, model: 'agy/gemini-2.5-pro' }).coderId).toBe('agy');
    expect(load).not.toHaveBeenCalled();

    const [first, second] = await Promise.all([registry.get('agy'), registry.get('agy')]);
    const third = await registry.get('agy');
    expect(first.id).toBe('agy');
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("hands load the coder's own config entry, or an empty one", async () => {
    const seen: unknown[] = [];
    const registry = createCoderRegistry({
      registrations: [
        registration('agy', (settings) => {
          seen.push(settings);
          return adapter('agy');
        }),
        registration('codex', (settings) => {
          seen.push(settings);
          return adapter('codex');
        }),
      ],
      defaultCoderId: 'agy',
      settings: { agy: { binary: '/opt/agy/bin/agy', timeout_seconds: 600 } },
    });
    await registry.get('agy');
    await registry.get('codex');
    expect(seen).toEqual([{ binary: '/opt/agy/bin/agy', timeout_seconds: 600 }, {}]);
  });

  it('does not cache a failed load, so a retry after the fix works', async () => {
    let installed = false;
    const registry = createCoderRegistry({
      registrations: [
        registration('agy', () => {
          if (!installed) throw new SnodoError('CODER_NOT_INSTALLED', { message: 'agy is not installed' });
          return adapter('agy');
        }),
      ],
      defaultCoderId: 'agy',
    });
    await expect(registry.get('agy')).rejects.toThrow('agy is not installed');
    installed = true;
    await expect(registry.get('agy')).resolves.toMatchObject({ id: 'agy' });
  });

  it('refuses an adapter for another specification version', async () => {
    const registry = createCoderRegistry({
      registrations: [registration('agy', () => adapter('agy', { specificationVersion: 'coder-v2' }))],
      defaultCoderId: 'agy',
    });
    const error = await registry.get('agy').catch((caught: unknown) => caught);
    expectCode(error, 'CODER_SPECIFICATION_UNSUPPORTED');
    expect((error as Error).message).toContain('"coder-v2"');
    expect((error as Error).message).toContain('coder-v1');
  });

  it('refuses a coder-v1 tag without the methods core calls', async () => {
    const registry = createCoderRegistry({
      registrations: [registration('agy', () => adapter('agy', { doRun: undefined }))],
      defaultCoderId: 'agy',
    });
    const error = await registry.get('agy').catch((caught: unknown) => caught);
    expectCode(error, 'CODER_SPECIFICATION_UNSUPPORTED');
    expect((error as Error).message).toContain('doRun');
  });

  it('refuses an adapter whose id or kind differs from its registration', async () => {
    const registry = createCoderRegistry({
      registrations: [
        registration('agy', () => adapter('antigravity')),
        registration('codex', () => adapter('codex', { kind: 'engine-managed' })),
      ],
      defaultCoderId: 'agy',
    });
    const wrongId = await registry.get('agy').catch((caught: unknown) => caught);
    expect(CoderRegistrationInvalidError.isInstance(wrongId)).toBe(true);
    expect((wrongId as Error).message).toContain("'antigravity'");
    const wrongKind = await registry.get('codex').catch((caught: unknown) => caught);
    expect((wrongKind as Error).message).toContain('coders.codex.kind: engine-managed');
  });

  it('refuses an unknown id with the registered ids, and never falls back', async () => {
    const load = vi.fn(() => adapter('agy'));
    const registry = createCoderRegistry({
      registrations: [registration('agy', load), mock],
      defaultCoderId: 'agy',
    });
    const error = await registry.get('aider').catch((caught: unknown) => caught);
    expectCode(error, 'CODER_UNKNOWN');
    expect((error as Error).message).toContain('"aider"');
    expect((error as Error).message).toContain('agy, mock');
    expect(() => registry.registration('aider')).toThrow(/registered: agy, mock/);
    expect(load).not.toHaveBeenCalled();
  });

  it.each([
    ['a duplicate id', [registration('agy', vi.fn()), registration('agy', vi.fn())], /registered twice/],
    ['an id that is not kebab case', [registration('My_Coder', vi.fn())], /not kebab case/],
    [
      'a model prefix claimed twice',
      [registration('agy', vi.fn()), registration('other', vi.fn(), { modelPrefix: 'agy/' })],
      /'agy\/' is claimed by both 'agy' and 'other'/,
    ],
    [
      'a model prefix without its slash',
      [registration('agy', vi.fn(), { modelPrefix: 'agy' })],
      /ending in '\/'/,
    ],
    [
      'a bare-name beginning claimed twice',
      [
        registration('agy', vi.fn(), { bareModelPrefixes: ['gemini'] }),
        registration('other', vi.fn(), { bareModelPrefixes: ['gemini'] }),
      ],
      /'gemini' is claimed by both/,
    ],
    [
      'usesJudgingModel on an in-place coder',
      [registration('agy', vi.fn(), { usesJudgingModel: true })],
      /in-place coders run on their own model/,
    ],
  ])('refuses %s at start-up', (_name, registrations, message) => {
    const build = () => createCoderRegistry({ registrations, defaultCoderId: 'agy' });
    expect(build).toThrow(message);
    expect(build).toThrow(CoderRegistrationInvalidError);
  });

  it('refuses a default or mock coder that is not registered', () => {
    const registrations = [registration('agy', vi.fn())];
    expect(() => createCoderRegistry({ registrations, defaultCoderId: 'litellm' })).toThrow(
      /default coder 'litellm' is not registered. Registered: agy/,
    );
    expect(() => createCoderRegistry({ registrations, defaultCoderId: 'agy', mockCoderId: 'mock' })).toThrow(
      /mock coder 'mock' is not registered/,
    );
  });
});
