import { describe, expect, it } from 'vitest';
import { readOpencodeConfig } from './opencode-config.js';
import { parseOpencodeEvent } from './opencode-events.js';
import { parseOpencodeModel } from './opencode-model.js';
import { isSettledByPoll } from './session-settlement.js';

describe('opencode settings', () => {
  it('defaults to a host server with hermetic directories, and lets the run override the config', () => {
    const config = readOpencodeConfig('opencode', [
      { runtime: 'url', url: 'http://127.0.0.1:4096/', poll_interval_seconds: 5 },
      { runtime: 'host', binary: '/opt/opencode' },
    ]);
    expect(config).toMatchObject({
      runtime: 'host',
      binary: '/opt/opencode',
      url: 'http://127.0.0.1:4096',
      hermetic: true,
      pollIntervalMs: 5000,
      startupTimeoutMs: 60_000,
    });
  });

  it('names the key that is wrong, and what a runtime is missing', () => {
    expect(() => readOpencodeConfig('opencode', [{ runtime: 'podman' }])).toThrow(
      expect.objectContaining({ code: 'CODER_CONFIG_INVALID', setting: 'runtime' }),
    );
    expect(() => readOpencodeConfig('opencode', [{ runtime: 'url', url: 'ftp://example.com' }])).toThrow(
      expect.objectContaining({ setting: 'url' }),
    );
    expect(() => readOpencodeConfig('opencode', [{ runtime: 'url' }])).toThrow(
      expect.objectContaining({
        setting: 'url',
        message: expect.stringContaining('running OpenCode 1.x server'),
      }),
    );
    expect(() => readOpencodeConfig('opencode', [{ provider_config: 'mock' }])).toThrow(
      expect.objectContaining({ setting: 'provider_config' }),
    );
  });

  it('reads provider/model, keeping slashes that belong to the model id', () => {
    expect(parseOpencodeModel('opencode', 'openrouter/meta-llama/llama-3.3')).toEqual({
      providerID: 'openrouter',
      modelID: 'meta-llama/llama-3.3',
    });
    expect(parseOpencodeModel('opencode', undefined)).toBeUndefined();
    expect(() => parseOpencodeModel('opencode', 'gpt-5')).toThrow(
      expect.objectContaining({ setting: 'model' }),
    );
  });
});

describe('opencode events', () => {
  it('reads the events the run acts on and passes every other type through by name', () => {
    expect(parseOpencodeEvent('{"type":"session.idle","properties":{"sessionID":"ses_1"}}')).toEqual({
      type: 'session.idle',
      properties: { sessionID: 'ses_1' },
    });
    expect(parseOpencodeEvent('{"type":"plugin.added","properties":{"id":"x"}}')).toEqual({
      type: 'other',
      name: 'plugin.added',
    });
    expect(parseOpencodeEvent('{"type":"session.status","properties":{}}')).toEqual({
      type: 'other',
      name: 'session.status (unreadable)',
    });
    expect(parseOpencodeEvent('not json')).toBeUndefined();
  });
});

describe('the status poll', () => {
  const fresh = { sawBusy: false, previousNotBusy: false, previousFinal: false };
  it('does not mistake the moment right after the prompt for the end', () => {
    expect(isSettledByPoll(fresh, true, false)).toBe(false);
    expect(isSettledByPoll({ ...fresh, previousNotBusy: true }, true, false)).toBe(false);
  });

  it('ends on a final answer with an idle status, on two idle polls after busy, or on two final answers', () => {
    expect(isSettledByPoll(fresh, true, true)).toBe(true);
    expect(isSettledByPoll({ ...fresh, sawBusy: true, previousNotBusy: true }, true, false)).toBe(true);
    expect(isSettledByPoll({ ...fresh, sawBusy: true }, false, true)).toBe(false);
    expect(isSettledByPoll({ ...fresh, sawBusy: true, previousFinal: true }, false, true)).toBe(true);
  });
});
