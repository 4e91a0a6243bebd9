import type { ProviderRetry } from '@snodo/coder-sdk';

/**
 * Gemini CLI's notice that a model call failed and will be retried. Its stream-json has no retry event:
 * the notice is a stderr line (checked live at 0.61.0 against a server answering 500 and 429, and in its
 * bundle's `retryWithBackoff`):
 * `Attempt 1 failed with status 500. Retrying with backoff... _ApiError: {…}`,
 * `Attempt 3 failed with 429 error (no Retry-After header). Retrying with backoff...`,
 * `Attempt 2 failed with 5xx error. Retrying with backoff...`,
 * `Attempt 4 failed: <message>. Retrying after 1200ms...`.
 * The last attempt's line ends `Max attempts reached` instead: that one is not a retry.
 */
const retryLine =
  /^Attempt (\d+) failed(?: with status (\d{3})| with (429) error| with (5)xx error)?(.*?)\.? Retrying (?:with backoff|after \d+ms)/;

/** The retry a stderr line announces, or `undefined` for any other line. */
export function parseGeminiCliRetry(line: string, maxAttempts?: number): ProviderRetry | undefined {
  const match = retryLine.exec(line.trim());
  if (match === null) return undefined;
  const status = match[2] ?? match[3] ?? (match[4] === undefined ? undefined : '500');
  const detail = match[5]?.replace(/^: /, '').trim();
  return {
    attempt: Number(match[1]),
    ...(status === undefined ? {} : { status: Number(status) }),
    ...(maxAttempts === undefined ? {} : { maxRetries: maxAttempts - 1 }),
    ...(detail === undefined || detail === '' ? {} : { detail }),
  };
}

/**
 * Lines Gemini CLI prints on stderr in every headless run, which never explain a failure: the terminal
 * colour notice and the `--approval-mode yolo` notice (printed twice). Removed from error messages'
 * stderr tails; the transcript keeps them.
 */
export const GEMINI_CLI_STDERR_NOISE: readonly RegExp[] = [
  /^Warning: 256-color support not detected\./,
  /^YOLO mode is enabled\. All tool calls will be automatically approved\.$/,
];
