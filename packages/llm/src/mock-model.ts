import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { mockAnswer } from './mock-answer.js';

/** The severities of the three mock judging models: `mock/pass`, `mock/warn`, `mock/blocker`. */
export type MockSeverity = 'pass' | 'warn' | 'blocker';

/** The model ids the `mock` provider serves. */
export const MOCK_MODEL_IDS: readonly MockSeverity[] = ['pass', 'warn', 'blocker'];

/** `true` when `modelId` names one of the mock judging models. */
export function isMockModelId(modelId: string): modelId is MockSeverity {
  return (MOCK_MODEL_IDS as readonly string[]).includes(modelId);
}

/** The justification every `mock/<severity>` verdict carries. */
export function mockJustification(severity: MockSeverity): string {
  return `mock/${severity}: fixed verdict from snodo's offline judging model; no model was called.`;
}

/**
 * The raw usage every mock call reports, so usage records show the zero came from a mock and not from a
 * provider that forgot to count.
 */
export const MOCK_RAW_USAGE = { mock: true } as const;

/**
 * A deterministic judging model for dry runs and tests (`snodo run --mock`): it answers any verdict request
 * with its severity and a fixed justification, fills any other structured request with the smallest valid
 * object (see `mockAnswer`), reports zero usage, and makes no network call.
 *
 * It implements the AI SDK language-model interface (`specificationVersion: 'v3'`) directly, so
 * `generateText` and `streamText` drive it like any provider model.
 */
export function createMockModel(severity: MockSeverity): LanguageModelV3 {
  const modelId = severity;
  const answer = (options: LanguageModelV3CallOptions): string => {
    const values = { severity, justification: mockJustification(severity) };
    const format = options.responseFormat;
    if (format?.type === 'json' && format.schema !== undefined) {
      return JSON.stringify(mockAnswer(format.schema, values));
    }
    return JSON.stringify({ severity, justification: values.justification, findings: [] });
  };

  return {
    specificationVersion: 'v3',
    provider: 'mock',
    modelId,
    supportedUrls: {},
    async doGenerate(options): Promise<LanguageModelV3GenerateResult> {
      options.abortSignal?.throwIfAborted();
      return {
        content: [{ type: 'text', text: answer(options) }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: zeroUsage(),
        warnings: [],
        response: { id: `mock-${severity}`, modelId: `mock/${modelId}`, timestamp: new Date(0) },
      };
    },
    async doStream(options): Promise<LanguageModelV3StreamResult> {
      options.abortSignal?.throwIfAborted();
      const parts: LanguageModelV3StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        {
          type: 'response-metadata',
          id: `mock-${severity}`,
          modelId: `mock/${modelId}`,
          timestamp: new Date(0),
        },
        { type: 'text-start', id: 'text-0' },
        { type: 'text-delta', id: 'text-0', delta: answer(options) },
        { type: 'text-end', id: 'text-0' },
        { type: 'finish', usage: zeroUsage(), finishReason: { unified: 'stop', raw: 'stop' } },
      ];
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      });
      return { stream };
    },
  };
}

function zeroUsage(): LanguageModelV3Usage {
  return {
    inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 0, text: 0, reasoning: 0 },
    raw: { ...MOCK_RAW_USAGE },
  };
}
