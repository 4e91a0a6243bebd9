/**
 * Token usage and cost of one coder attempt, normalised across coders. `snodo meta` sums it per role.
 *
 * In-place CLIs need not report usage; what they do report is kept. Counting conventions differ between
 * providers (Codex counts cached tokens inside input tokens, Claude separately); adapters normalise to the
 * convention below.
 */
export interface CoderV1Usage {
  /** Input (prompt) tokens, excluding cached input tokens. */
  readonly inputTokens: number;
  /** Output (completion) tokens, including reasoning tokens. */
  readonly outputTokens: number;
  /** Input tokens served from a provider cache. */
  readonly cachedInputTokens: number;
  /**
   * Of `inputTokens`, those written to a provider's prompt cache (Anthropic's
   * `cache_creation_input_tokens`), when the coder knows them. Core prices them at the model's cache-write
   * rate (higher than plain input), so a usage without a cost still keeps a dollar cap true. Optional.
   */
  readonly cacheWriteTokens?: number;
  /** Cost in US dollars, or `null` when unknown. A CLI-reported cost wins over snodo's price catalog. */
  readonly costUsd: number | null;
  /**
   * Where the token counts come from. `reported`: the coder or provider reported them (a cost priced from
   * snodo's catalog on top of reported counts is still `reported`). `estimated`: some counts were computed
   * (a call that came back without usage). A coder that made no model call reports zeros with `reported`.
   */
  readonly source: 'reported' | 'estimated';
  /** The model the numbers belong to, when known (`claude-sonnet-4-5`), so core can price them. */
  readonly model?: string;
}
