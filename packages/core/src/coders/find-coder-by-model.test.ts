import { describe, expect, it } from 'vitest';
import type { CoderRegistration } from './coder-registration.js';
import { findCoderByModel } from './find-coder-by-model.js';

const registration = (id: string, extra: Partial<CoderRegistration>): CoderRegistration => ({
  id,
  displayName: id,
  kind: 'in-place',
  load: () => {
    throw new Error('not loaded in routing');
  },
  ...extra,
});

// Registered in the "wrong" order on purpose: the result must not depend on registration order.
const registrations = [
  registration('opencode', { modelPrefix: 'opencode/' }),
  registration('opencode-zen', { modelPrefix: 'opencode/zen/' }),
  registration('openai', { kind: 'engine-managed', bareModelPrefixes: ['o1', 'gpt'] }),
  registration('openai-pro', { kind: 'engine-managed', bareModelPrefixes: ['o1-pro'] }),
];

describe('findCoderByModel', () => {
  it('takes the longest namespace first and strips it', () => {
    expect(findCoderByModel('opencode/zen/big', registrations)).toMatchObject({
      kind: 'namespace',
      registration: { id: 'opencode-zen' },
      coderModel: 'big',
    });
    expect(findCoderByModel('opencode/big', registrations)).toMatchObject({
      registration: { id: 'opencode' },
      coderModel: 'big',
    });
  });

  it('takes the longest bare-name beginning first and keeps the model whole', () => {
    expect(findCoderByModel('o1-pro-2025', registrations)).toMatchObject({
      kind: 'bare-name',
      registration: { id: 'openai-pro' },
      coderModel: 'o1-pro-2025',
    });
    expect(findCoderByModel('o1-mini', registrations)).toMatchObject({ registration: { id: 'openai' } });
  });

  it('returns undefined for a model nobody claims', () => {
    expect(findCoderByModel('deepseek/deepseek-chat', registrations)).toBeUndefined();
  });
});
