import type { ProviderRetry } from '@snodo/coder-sdk';
import { z } from 'zod';

/**
 * Claude Code's notice that a model call failed and will be retried, one stream-json line per retry
 * (checked live at 2.1.332 against a server answering 500 and 429):
 * `{"type":"system","subtype":"api_retry","attempt":1,"max_retries":10,"retry_delay_ms":507,
 * "error_status":500,"error":"server_error",…}`. `CLAUDE_CODE_MAX_RETRIES` sets `max_retries`.
 */
export const claudeCodeApiRetryEventSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('api_retry'),
  attempt: z.number().int().positive().optional(),
  max_retries: z.number().int().nonnegative().optional(),
  retry_delay_ms: z.number().nonnegative().optional(),
  error_status: z.number().int().nullish(),
  error: z.string().optional(),
});

/** The `api_retry` event as a retry the SDK's log keeps, or `undefined` for any other line. */
export function parseClaudeCodeRetry(line: string): ProviderRetry | undefined {
  const trimmed = line.trim();
  // A cheap test first: most lines are large assistant or tool events.
  if (!trimmed.startsWith('{') || !trimmed.includes('"api_retry"')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  const parsed = claudeCodeApiRetryEventSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const event = parsed.data;
  return {
    ...(event.error_status == null ? {} : { status: event.error_status }),
    ...(event.attempt === undefined ? {} : { attempt: event.attempt }),
    ...(event.max_retries === undefined ? {} : { maxRetries: event.max_retries }),
    ...(event.error === undefined ? {} : { detail: event.error }),
  };
}
