import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigKeyError } from '../errors.js';
import { ConfigInvalidError } from './config-invalid-error.js';
import { ConfigStore } from './config-store.js';

let root: string;
let home: string;
let store: ConfigStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'snodo-config-'));
  home = join(root, 'snodo-home');
  store = new ConfigStore({ home });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;
const posixOnly = process.platform === 'win32' ? it.skip : it; // POSIX modes do not exist on Windows.

describe('ConfigStore', () => {
  it('treats a missing file as the empty config and does not create it', () => {
    expect(store.load()).toEqual({ path: join(home, 'config.yml'), exists: false, config: {}, warnings: [] });
    expect(store.configPath()).toBe(join(home, 'config.yml'));
    expect(() => statSync(home)).toThrow();
  });

  posixOnly('round-trips a config through a 0600 file in a 0700 home it creates', () => {
    store.save({
      model: 'mock/pass',
      llm: { validator: { model: 'provider-a/judge', max_tokens: 1500, temperature: 0 } },
      providers: {
        'provider-a': { api_key: 'pa-0123456789abcdefghij', base_url: 'http://127.0.0.1:4000/v1' },
      },
      coders: { 'some-cli': { binary: '/opt/bin/some-cli', timeout_seconds: 600, env: { MODE: 'fast' } } },
      prices: { 'provider-a/gpt-4.1': { input: 2, output: 8 } },
      worktrees_dir: '~/work/trees',
    });
    expect(modeOf(store.configPath())).toBe(0o600);
    expect(modeOf(home)).toBe(0o700);
    const { config, warnings, exists } = store.load();
    expect(exists).toBe(true);
    expect(warnings).toEqual([]);
    expect(config.providers?.['provider-a']?.api_key).toBe('pa-0123456789abcdefghij');
    expect(config.prices?.['provider-a/gpt-4.1']).toEqual({ input: 2, output: 8 });
    expect(config.llm?.validator).toEqual({ model: 'provider-a/judge', max_tokens: 1500, temperature: 0 });
  });

  posixOnly('tightens a file that was readable by others when it rewrites it, and warns before that', () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(store.configPath(), 'model: mock/pass\n');
    chmodSync(store.configPath(), 0o644);
    const { warnings } = store.load();
    expect(warnings.map((warning) => warning.rule)).toEqual(['permissions']);
    expect(warnings[0]?.message).toContain('mode 0644');
    expect(warnings[0]?.message).toContain('chmod 600');
    store.setConfigValue('llm.classifier.model', 'mock/pass');
    expect(modeOf(store.configPath())).toBe(0o600);
    expect(store.load().warnings).toEqual([]);
  });

  it('leaves no temporary file behind, also when the write fails', () => {
    store.addProviderKey('provider-a', 'pa-0123456789abcdefghij');
    store.setConfigValue('model', 'provider-a/model-1');
    expect(readdirSync(home)).toEqual(['config.yml']);
    const blocked = new ConfigStore({ home: join(root, 'blocked') });
    mkdirSync(blocked.configPath(), { recursive: true }); // a directory where the file should go
    expect(() => blocked.save({ model: 'x/y' })).toThrow();
    expect(readdirSync(join(root, 'blocked'))).toEqual(['config.yml']);
  });

  it('adds and removes provider keys, keeping the comments the user wrote', () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(store.configPath(), '# my judging model\nmodel: mock/pass  # offline\n', { mode: 0o600 });
    store.addProviderKey('provider-a', ' pa-0123456789abcdefghij ', { apiKeyEnv: 'PROVIDER_A_KEY' });
    const text = readFileSync(store.configPath(), 'utf8');
    expect(text).toContain('# my judging model');
    expect(text).toContain('# offline');
    expect(store.load().config.providers).toEqual({
      'provider-a': { api_key: 'pa-0123456789abcdefghij', api_key_env: 'PROVIDER_A_KEY' },
    });
    expect(store.removeProvider('provider-a')).toBe(true);
    expect(store.removeProvider('provider-a')).toBe(false);
    expect(store.load().config).toEqual({ model: 'mock/pass' });
  });

  it('sets and gets values by dotted key, typed by the schema', () => {
    store.setConfigValue('llm.validator.max_tokens', '2000');
    store.setConfigValue('llm.validator.temperature', '0.2');
    store.setConfigValue('coders.some-cli.keep_attribution', 'true');
    store.setConfigValue('coders.some-cli.command', '["some-cli", "run", "{prompt}", "--model", "{model}"]');
    store.setConfigValue('coders.some-cli.env.SOME_TOKEN', 'tok-0123456789abcdefghij');
    store.setConfigValue('prices.provider-a/gpt-4.1.cache_read', '0.5');
    store.setConfigValue('model', '1.0');
    expect(store.getConfigValue('llm.validator')).toEqual({ max_tokens: 2000, temperature: 0.2 });
    expect(store.getConfigValue('coders.some-cli.command')).toEqual([
      'some-cli',
      'run',
      '{prompt}',
      '--model',
      '{model}',
    ]);
    expect(store.getConfigValue('coders.some-cli.keep_attribution')).toBe(true);
    expect(store.getConfigValue('prices.provider-a/gpt-4.1')).toEqual({ cache_read: 0.5 });
    expect(store.getConfigValue('model')).toBe('1.0');
    expect(store.getConfigValue('coders.some-cli.env.SOME_TOKEN')).toBe('tok-…ghij');
    expect(store.getConfigValue('coders.some-cli.env.SOME_TOKEN', { reveal: true })).toBe(
      'tok-0123456789abcdefghij',
    );
    expect(store.getConfigValue('llm.classifier.model')).toBeUndefined();
    expect(store.unsetConfigValue('llm.validator.temperature')).toBe(true);
    expect(store.unsetConfigValue('llm.validator.temperature')).toBe(false);
    expect(store.getConfigValue('llm.validator')).toEqual({ max_tokens: 2000 });
  });

  it('refuses an unknown key with a suggestion and the nearest valid keys, and writes nothing', () => {
    const error = (() => {
      try {
        store.setConfigValue('llm.validatr.model', 'x/y');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(ConfigKeyError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect((error as ConfigKeyError).code).toBe('CONFIG_KEY_INVALID');
    expect(message).toContain('did you mean `validator`?');
    expect(message).toContain('llm.validator\n');
    expect(message).toContain('snodo config keys');
    // The nearest keys only: the whole list buries the answer.
    expect(message).not.toContain('prices.<model>.cache_write');
    expect(() => store.getConfigValue('nonsense')).toThrow(/nearest valid keys[\s\S]*\n {2}model\n/);
    expect(() => store.getConfigValue('nonsense')).toThrow(ConfigKeyError);
    expect(() => statSync(store.configPath())).toThrow();
  });

  it('refuses a value of the wrong type and a section as a value', () => {
    expect(() => store.setConfigValue('llm.validator.max_tokens', 'many')).toThrow(
      /expected a whole number|expected a number/,
    );
    expect(() => store.setConfigValue('llm.validator.temperature', '7')).toThrow(/at most 2/);
    expect(() => store.setConfigValue('providers.provider-a.base_url', 'not a url')).toThrow(/must be a URL/);
    expect(() => store.setConfigValue('llm.validator', 'x')).toThrow(/names a section/);
  });

  it('masks every secret in show, and keeps other values readable', () => {
    store.addProviderKey('provider-a', 'pa-0123456789abcdefghij');
    store.addProviderKey('provider-b', 'short-key');
    store.setConfigValue('coders.some-cli.env.SOME_PASSWORD', 'hunter2');
    store.setConfigValue('coders.some-cli.env.HOME_DIR', '/home/someone/.cache/some-cli');
    store.setConfigValue('coders.some-cli.env.OPAQUE', 'Zx81Qw00Lk55Rt77Yu99Ab');
    const view = store.showConfig();
    expect(view.config.providers?.['provider-a']?.api_key).toBe('pa-0…ghij');
    expect(view.config.providers?.['provider-b']?.api_key).toBe('********');
    expect(view.config.coders?.['some-cli']?.env).toEqual({
      SOME_PASSWORD: '********',
      HOME_DIR: '/home/someone/.cache/some-cli',
      OPAQUE: 'Zx81…99Ab',
    });
    expect(JSON.stringify(view)).not.toContain('0123456789');
    expect(store.load().config.providers?.['provider-a']?.api_key).toBe('pa-0123456789abcdefghij');
  });

  it('refuses to edit a broken file instead of replacing it with defaults', () => {
    mkdirSync(home, { recursive: true });
    writeFileSync(store.configPath(), 'model: [unclosed\n', { mode: 0o600 });
    expect(() => store.load()).toThrow(ConfigInvalidError);
    expect(() => store.addProviderKey('provider-a', 'pa-0123456789abcdefghij')).toThrow(ConfigInvalidError);
    expect(readFileSync(store.configPath(), 'utf8')).toBe('model: [unclosed\n');
  });

  it('resolves its home from SNODO_HOME or the home directory', () => {
    expect(ConfigStore.fromEnvironment({ env: { SNODO_HOME: '~/custom' }, homedir: root }).home).toBe(
      join(root, 'custom'),
    );
    expect(ConfigStore.fromEnvironment({ env: {}, homedir: root }).configPath()).toBe(
      join(root, '.snodo', 'config.yml'),
    );
  });
});
