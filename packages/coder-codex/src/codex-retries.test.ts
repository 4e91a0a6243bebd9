import { removeNoiseLines } from '@snodo/coder-sdk';
import { describe, expect, it } from 'vitest';
import { CODEX_STDERR_NOISE, parseCodexRetry } from './codex-retries.js';

// Lines printed by the real Codex 0.171.0 against servers answering 500 and 401.
const outage =
  '{"type":"error","message":"Reconnecting... 1/5 (We’re currently experiencing high demand, which may cause temporary errors.)"}';
const refused =
  '{"type":"error","message":"Reconnecting... 2/2 (unexpected status 401 Unauthorized: scripted outage, url: http://127.0.0.1:47127/v1/responses)"}';
const stderr =
  'WARNING: proceeding, even though we could not create PATH aliases: Refusing to create helper binaries under temporary dir "/tmp" (codex_home: AbsolutePathBuf("/tmp/h4/chome"))\n' +
  'Reading additional input from stdin...\n';

describe('parseCodexRetry', () => {
  it('reads the retry count and, when Codex names it, the status', () => {
    expect(parseCodexRetry(outage)).toMatchObject({ attempt: 1, maxRetries: 5 });
    expect(parseCodexRetry(outage)?.status).toBeUndefined();
    expect(parseCodexRetry(refused)).toMatchObject({ attempt: 2, maxRetries: 2, status: 401 });
  });

  it('ignores the final error and other events', () => {
    expect(
      parseCodexRetry('{"type":"error","message":"We’re currently experiencing high demand."}'),
    ).toBeUndefined();
    expect(
      parseCodexRetry('{"type":"turn.failed","error":{"message":"Reconnecting... 1/5"}}'),
    ).toBeUndefined();
  });
});

describe('CODEX_STDERR_NOISE', () => {
  it('removes the PATH-alias warning and the stdin notice, and keeps a real error', () => {
    expect(removeNoiseLines(stderr, CODEX_STDERR_NOISE)).toBe('');
    expect(removeNoiseLines(`${stderr}Error: config.toml is invalid\n`, CODEX_STDERR_NOISE)).toBe(
      'Error: config.toml is invalid\n',
    );
  });
});
