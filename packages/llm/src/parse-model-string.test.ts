import { describe, expect, it } from 'vitest';
import { LlmModelStringInvalidError } from './errors/llm-model-string-invalid-error.js';
import { formatModelString, parseModelString } from './parse-model-string.js';

describe('parseModelString', () => {
  it.each([
    ['anthropic/claude-sonnet-4-5', 'anthropic', 'claude-sonnet-4-5'],
    ['openai/gpt-4o', 'openai', 'gpt-4o'],
    ['google/gemini-2.5-pro', 'google', 'gemini-2.5-pro'],
    ['gemini/gemini-2.5-pro', 'google', 'gemini-2.5-pro'],
    ['openrouter/anthropic/claude-sonnet-4.5', 'openrouter', 'anthropic/claude-sonnet-4.5'],
    ['litellm/gpt-4o', 'litellm', 'gpt-4o'],
    ['litellm/openai/@cf/meta/llama-3', 'litellm', 'openai/@cf/meta/llama-3'],
    ['ollama/llama3.1:8b', 'ollama', 'llama3.1:8b'],
    ['groq/llama-3.3-70b-versatile', 'groq', 'llama-3.3-70b-versatile'],
    ['amazon-bedrock/anthropic.claude-3-haiku', 'amazon-bedrock', 'anthropic.claude-3-haiku'],
    ['mock/pass', 'mock', 'pass'],
    ['Anthropic/claude-opus-4-1', 'anthropic', 'claude-opus-4-1'],
    ['  openai/gpt-4.1  ', 'openai', 'gpt-4.1'],
    ['gpt-4o-mini', 'openai', 'gpt-4o-mini'],
    ['o1-preview', 'openai', 'o1-preview'],
    ['o3-mini', 'openai', 'o3-mini'],
    ['o4-mini', 'openai', 'o4-mini'],
    ['claude-sonnet-4-5-20250929', 'anthropic', 'claude-sonnet-4-5-20250929'],
    ['gemini-2.0-flash', 'google', 'gemini-2.0-flash'],
    ['GPT-4o', 'openai', 'GPT-4o'],
  ])('%s → provider %s, model %s', (input, provider, modelId) => {
    expect(parseModelString(input)).toEqual({ provider, modelId });
  });

  it.each([
    ['', 'it is empty'],
    ['   ', 'it is empty'],
    ['/gpt-4o', 'the provider before "/" is empty'],
    ['openai/', 'the model id after "/" is empty'],
    ['my provider/x', 'may only hold'],
    ['llama3', 'no provider prefix'],
    ['mistral-large', 'no provider prefix'],
  ])('rejects %j: %s', (input, reason) => {
    let caught: unknown;
    try {
      parseModelString(input);
    } catch (error) {
      caught = error;
    }
    expect(LlmModelStringInvalidError.isInstance(caught)).toBe(true);
    const error = caught as LlmModelStringInvalidError;
    expect(error.code).toBe('LLM_MODEL_STRING_INVALID');
    expect(error.modelString).toBe(input);
    expect(error.message).toContain(reason);
  });

  it('lists the accepted forms when a bare name routes nowhere', () => {
    expect(() => parseModelString('llama3')).toThrow(/provider\/model.*gpt, o1, o3, o4.*claude.*gemini/s);
  });

  it('formats back to the canonical string', () => {
    expect(formatModelString(parseModelString('gemini/gemini-2.5-pro'))).toBe('google/gemini-2.5-pro');
    expect(formatModelString(parseModelString('claude-haiku-4-5'))).toBe('anthropic/claude-haiku-4-5');
  });
});
