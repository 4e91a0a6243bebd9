import type { CoderV1Usage } from '@snodo/coder-sdk';
import type { OpencodeMessageInfo } from './opencode-events.js';

/**
 * Sums the usage OpenCode reports on a session's assistant messages into snodo's shape.
 *
 * OpenCode's `tokens.input` excludes cache reads and cache writes, and `tokens.output` excludes reasoning.
 * snodo counts cached reads separately (`cachedInputTokens`), cache writes as input (they are billed as
 * prompt tokens) and reasoning as output. `costUsd` is OpenCode's own cost when it reports one above zero;
 * a zero cost alongside tokens means OpenCode had no price for the model, so it is `null` and core may
 * estimate it from its price catalog. `undefined` when the session has no assistant message with tokens.
 */
export function usageFromMessages(messages: readonly OpencodeMessageInfo[]): CoderV1Usage | undefined {
  let input = 0;
  let output = 0;
  let cached = 0;
  let cost = 0;
  let counted = 0;
  let model: string | undefined;
  for (const message of messages) {
    if (message.role !== 'assistant' || message.tokens === undefined) continue;
    const tokens = message.tokens;
    input += tokens.input + (tokens.cache?.write ?? 0);
    output += tokens.output + (tokens.reasoning ?? 0);
    cached += tokens.cache?.read ?? 0;
    cost += message.cost ?? 0;
    counted += 1;
    if (message.providerID !== undefined && message.modelID !== undefined) {
      model = `${message.providerID}/${message.modelID}`;
    }
  }
  if (counted === 0) return undefined;
  const integer = (value: number) => Math.max(0, Math.round(value));
  const tokensUsed = input + output + cached > 0;
  return {
    inputTokens: integer(input),
    outputTokens: integer(output),
    cachedInputTokens: integer(cached),
    costUsd: cost > 0 ? cost : tokensUsed ? null : 0,
    source: 'reported',
    ...(model === undefined ? {} : { model }),
  };
}
