import { describe, expect, it } from 'vitest';
import { CoderProviderFailedError } from '../errors/coder-provider-failed-error.js';
import { LineSplitter } from '../subprocess/line-splitter.js';
import { removeNoiseLines } from '../subprocess/remove-noise-lines.js';
import { describeProviderRetry, ProviderRetryLog } from './provider-retry-log.js';

const endpoint = { where: 'http://127.0.0.1:4000', setting: 'coders.claude-code.base_url' };

describe('provider retries', () => {
  it('read as progress a user understands', () => {
    expect(describeProviderRetry('Claude Code', { status: 500, attempt: 3, maxRetries: 10 })).toBe(
      'Claude Code: API error 500, retry 3/10',
    );
    expect(describeProviderRetry('Gemini CLI', { status: 429 })).toBe(
      'Gemini CLI: rate limited (429), retrying',
    );
    expect(describeProviderRetry('Codex', { attempt: 2 })).toBe('Codex: API error, retry 2');
  });

  it('become the failure: the provider kept failing, and the fix names its URL, not the task', () => {
    const log = new ProviderRetryLog();
    expect(log.toError({ coderId: 'claude-code', displayName: 'Claude Code', endpoint })).toBeUndefined();
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      log.record('Claude Code', { status: 500, attempt, maxRetries: 10, detail: 'server_error' });
    }
    const error = log.toError({
      coderId: 'claude-code',
      displayName: 'Claude Code',
      endpoint,
      detail: 'API Error: 500 scripted outage',
      stoppedAfterMs: 120_000,
    });
    expect(CoderProviderFailedError.isInstance(error)).toBe(true);
    expect(error?.code).toBe('CODER_PROVIDER_FAILED');
    expect(error?.message).toContain('the provider kept failing: API error 500 (10 retries)');
    expect(error?.message).toContain('last error: API Error: 500 scripted outage');
    expect(error?.message).toContain('after 120s');
    expect(error?.fix).toContain('http://127.0.0.1:4000 (set by coders.claude-code.base_url)');
    expect(error?.message).not.toContain('split the task');
    expect(error).toMatchObject({ retries: 10, status: 500, stoppedAfterMs: 120_000 });
  });

  it('a refused key is not an outage: the CLI’s own error stands', () => {
    const log = new ProviderRetryLog();
    log.record('Codex', { status: 401, attempt: 1 });
    expect(log.toError({ coderId: 'codex', displayName: 'Codex', endpoint })).toBeUndefined();
  });

  it('a rate limit points at the quota', () => {
    const log = new ProviderRetryLog();
    log.record('Gemini CLI', { status: 429 });
    const error = log.toError({ coderId: 'gemini-cli', displayName: 'Gemini CLI', endpoint });
    expect(error?.message).toContain('rate limited (429) (1 retry)');
    expect(error?.fix).toContain('quota');
  });
});

describe('LineSplitter', () => {
  it('yields whole lines across chunk boundaries', () => {
    const splitter = new LineSplitter();
    expect(splitter.push('{"a":')).toEqual([]);
    expect(splitter.push('1}\r\n{"b"')).toEqual(['{"a":1}']);
    expect(splitter.push(':2}\nrest')).toEqual(['{"b":2}']);
  });
});

describe('removeNoiseLines', () => {
  it('drops the known noise and keeps the failure’s own lines in order', () => {
    const text = 'WARNING: could not create PATH aliases\nError: 500 outage\nReading input\nlast\n';
    expect(removeNoiseLines(text, [/^WARNING: .*PATH aliases/, /^Reading input$/])).toBe(
      'Error: 500 outage\nlast\n',
    );
    expect(removeNoiseLines(text, [])).toBe(text);
  });
});
