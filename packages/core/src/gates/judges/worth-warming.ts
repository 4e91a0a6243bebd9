import type { SharedJudgePrefix } from './judge-prompt-parts.js';

/**
 * The shortest shared prefix worth one judge's latency to warm, in characters. Providers cache a prompt
 * prefix only from 1,024 tokens (the smallest cacheable prefix of the major providers; some models want
 * 2,048 or 4,096), and ordinary text and code run 3–4 characters to a token, so below 3 × 1,024 characters
 * no provider would cache what the first judge sends and running it alone only adds its latency. Judge
 * tool definitions, also part of a cached prefix, are left out of the count: a missed warm-up costs only
 * cache writes, a needless one a judge's latency.
 */
export const MIN_WARMABLE_PREFIX_CHARS = 3 * 1_024;

/**
 * Whether running one judge first (`execution.warm_judge_cache`) can pay off for this phase: the system
 * message and the shared part of the user message together are long enough for a provider to cache.
 * A pre-execute phase (the task alone) or a small change fans its judges out at once.
 */
export function worthWarming(prefix: SharedJudgePrefix): boolean {
  return prefix.system.length + prefix.text.length >= MIN_WARMABLE_PREFIX_CHARS;
}
