import { describe, expect, it } from 'vitest';
import { LlmCallFailedError } from './errors/llm-call-failed-error.js';
import { LlmCredentialsMissingError } from './errors/llm-credentials-missing-error.js';
import { LlmError } from './errors/llm-error.js';
import { LlmModelStringInvalidError } from './errors/llm-model-string-invalid-error.js';
import { VerdictInvalidError } from './errors/verdict-invalid-error.js';
import { LlmCallAbortedError, LlmOutputInvalidError, LlmProviderNotInstalledError } from './errors.js';

const usage = {
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  costUsd: null,
  source: 'estimated' as const,
};
const invalid = { model: 'm/x', text: '', problem: 'p', usage };

const cases = [
  [
    'LLM_MODEL_STRING_INVALID',
    LlmModelStringInvalidError,
    new LlmModelStringInvalidError({ modelString: 'x', reason: 'r' }),
  ],
  [
    'LLM_PROVIDER_NOT_INSTALLED',
    LlmProviderNotInstalledError,
    new LlmProviderNotInstalledError({ provider: 'x', packageName: '@ai-sdk/x' }),
  ],
  [
    'LLM_CREDENTIALS_MISSING',
    LlmCredentialsMissingError,
    new LlmCredentialsMissingError({ provider: 'x', envVars: [] }),
  ],
  [
    'LLM_CALL_FAILED',
    LlmCallFailedError,
    new LlmCallFailedError({ provider: 'x', modelId: 'y', reason: 'r' }),
  ],
  ['LLM_CALL_ABORTED', LlmCallAbortedError, new LlmCallAbortedError({ provider: 'x', modelId: 'y' })],
  ['LLM_OUTPUT_INVALID', LlmOutputInvalidError, new LlmOutputInvalidError(invalid)],
  ['VERDICT_INVALID', VerdictInvalidError, new VerdictInvalidError(invalid)],
] as const;

describe('the error hierarchy', () => {
  it.each(cases)('%s carries its code and the snodo markers', (code, errorClass, error) => {
    expect(error.code).toBe(code);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(errorClass.name);
    expect((error as unknown as Record<symbol, unknown>)[Symbol.for('snodo.error')]).toBe(true);
    expect(LlmError.isInstance(error)).toBe(true);
    expect(errorClass.isInstance(error)).toBe(true);
  });

  it('tells the classes apart', () => {
    for (const [, errorClass, own] of cases) {
      for (const [, , other] of cases) {
        expect(errorClass.isInstance(other), `${errorClass.name} on ${other.name}`).toBe(other === own);
      }
    }
  });

  it('recognises an error from another copy of the package by its marker, not its prototype', () => {
    const foreign = Object.assign(new Error('from a duplicate install'), { code: 'VERDICT_INVALID' });
    Object.defineProperty(foreign, Symbol.for('snodo.error.VERDICT_INVALID'), { value: true });
    Object.defineProperty(foreign, Symbol.for('snodo.error.LlmError'), { value: true });
    expect(VerdictInvalidError.isInstance(foreign)).toBe(true);
    expect(LlmError.isInstance(foreign)).toBe(true);
    expect(LlmError.isInstance(new Error('plain'))).toBe(false);
    expect(LlmError.isInstance(null)).toBe(false);
  });

  it('keeps the cause', () => {
    const cause = new Error('socket hang up');
    expect(new LlmCallFailedError({ provider: 'x', modelId: 'y', reason: 'r', cause }).cause).toBe(cause);
  });
});
