import { removeNoiseLines } from '@snodo/coder-sdk';
import { describe, expect, it } from 'vitest';
import { GEMINI_CLI_STDERR_NOISE, parseGeminiCliRetry } from './gemini-cli-retries.js';

// Lines printed on stderr by the real Gemini CLI 0.61.0 against a server answering 500 and 429.
const serverError =
  'Attempt 1 failed with status 500. Retrying with backoff... _ApiError: {"error":{"code":500,"message":"scripted outage","status":"INTERNAL"}}';
const rateLimit =
  'Attempt 1 failed with status 429. Retrying with backoff... _ApiError: {"error":{"code":429,"message":"scripted outage","status":"RESOURCE_EXHAUSTED"}}';
const lastAttempt = 'Attempt 2 failed: scripted outage. Max attempts reached';

describe('parseGeminiCliRetry', () => {
  it('reads the attempt and the status of a retry notice', () => {
    expect(parseGeminiCliRetry(serverError)).toEqual({ attempt: 1, status: 500 });
    expect(parseGeminiCliRetry(rateLimit, 10)).toEqual({ attempt: 1, status: 429, maxRetries: 9 });
    expect(
      parseGeminiCliRetry(
        'Attempt 3 failed with 429 error (no Retry-After header). Retrying with backoff...',
      ),
    ).toMatchObject({ attempt: 3, status: 429 });
    expect(parseGeminiCliRetry('Attempt 4 failed: fetch failed. Retrying after 1200ms...')).toEqual({
      attempt: 4,
      detail: 'fetch failed',
    });
  });

  it('is not fooled by the final attempt or by other lines', () => {
    expect(parseGeminiCliRetry(lastAttempt)).toBeUndefined();
    expect(parseGeminiCliRetry('    at async retryWithBackoff (file:///bundle.js:1:2)')).toBeUndefined();
  });
});

describe('GEMINI_CLI_STDERR_NOISE', () => {
  it('removes the start-up notices and keeps the failure', () => {
    const stderr =
      'Warning: 256-color support not detected. Using a terminal with at least 256-color support is recommended for a better visual experience.\n' +
      'YOLO mode is enabled. All tool calls will be automatically approved.\n' +
      `${lastAttempt}\n`;
    expect(removeNoiseLines(stderr, GEMINI_CLI_STDERR_NOISE)).toBe(`${lastAttempt}\n`);
  });
});
