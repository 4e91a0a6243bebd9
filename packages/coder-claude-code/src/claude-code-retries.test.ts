import { describe, expect, it } from 'vitest';
import { parseClaudeCodeRetry } from './claude-code-retries.js';

// Lines printed by the real Claude Code 2.1.332 against a server answering 500 and 429.
const serverError =
  '{"type":"system","subtype":"api_retry","attempt":1,"max_retries":2,"retry_delay_ms":507,"error_status":500,"error":"server_error","session_id":"81bca000-cf5e-4a59-9ab8-b79de716be91","uuid":"27439fa2-2e13-44b5-963c-8c648ff61a2a"}';
const rateLimit =
  '{"type":"system","subtype":"api_retry","attempt":2,"max_retries":2,"retry_delay_ms":1014,"error_status":429,"error":"rate_limit","session_id":"c6b6fe30-ebef-482e-b2e6-c2538b9ac48c","uuid":"13737f00-3cf0-4edd-915f-710ed9270408"}';

describe('parseClaudeCodeRetry', () => {
  it('reads the status, the retry count and the error of an api_retry event', () => {
    expect(parseClaudeCodeRetry(serverError)).toEqual({
      status: 500,
      attempt: 1,
      maxRetries: 2,
      detail: 'server_error',
    });
    expect(parseClaudeCodeRetry(`${rateLimit}\r`)).toMatchObject({ status: 429, attempt: 2 });
  });

  it('ignores every other line', () => {
    expect(parseClaudeCodeRetry('{"type":"system","subtype":"init","session_id":"x"}')).toBeUndefined();
    expect(parseClaudeCodeRetry('{"type":"assistant","text":"api_retry"')).toBeUndefined();
    expect(parseClaudeCodeRetry('api_retry')).toBeUndefined();
  });
});
