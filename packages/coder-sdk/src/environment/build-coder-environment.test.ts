import { describe, expect, it } from 'vitest';
import { buildCoderEnvironment, CODER_ENVIRONMENT_ALLOW_LIST } from './build-coder-environment.js';

const parentEnv = {
  PATH: '/usr/bin',
  HOME: '/home/ada',
  USER: 'ada',
  LANG: 'en_GB.UTF-8',
  LC_ALL: 'en_GB.UTF-8',
  LC_TIME: 'C',
  TERM: 'xterm',
  HTTPS_PROXY: 'http://proxy:3128',
  https_proxy: 'http://proxy:3128',
  NODE_EXTRA_CA_CERTS: '/etc/ca.pem',
  ANTHROPIC_API_KEY: 'sk-ant-other',
  OPENAI_API_KEY: 'sk-other',
  AWS_SECRET_ACCESS_KEY: 'aws',
  AWS_ACCESS_KEY_ID: 'AKIA',
  GITHUB_TOKEN: 'ghp_x',
  SSH_AUTH_SOCK: '/tmp/ssh.sock',
  GIT_DIR: '/elsewhere/.git',
  GIT_WORK_TREE: '/elsewhere',
  GIT_INDEX_FILE: '/elsewhere/index',
  NODE_OPTIONS: '--require evil.js',
  LD_PRELOAD: '/evil.so',
  DYLD_INSERT_LIBRARIES: '/evil.dylib',
  CLAUDECODE: '1',
  OPENAI_BASE_URL: 'http://attacker',
  ANTHROPIC_BASE_URL: 'http://attacker',
  UNSET: undefined,
};

describe('buildCoderEnvironment', () => {
  it('keeps only allow-listed variables and adds the credentials', () => {
    expect(buildCoderEnvironment({ parentEnv, credentials: { OPENAI_API_KEY: 'sk-mine' } })).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/ada',
      USER: 'ada',
      LANG: 'en_GB.UTF-8',
      LC_ALL: 'en_GB.UTF-8',
      LC_TIME: 'C',
      TERM: 'xterm',
      HTTPS_PROXY: 'http://proxy:3128',
      https_proxy: 'http://proxy:3128',
      NODE_EXTRA_CA_CERTS: '/etc/ca.pem',
      OPENAI_API_KEY: 'sk-mine',
    });
  });

  it('replaces HOME with the private home directory and honours extra allowed names and prefixes', () => {
    const environment = buildCoderEnvironment({
      parentEnv: { ...parentEnv, OPENCODE_CONFIG: '/x', OPENCODE_DISABLE_AUTOUPDATE: '1', MY_FLAG: 'on' },
      credentials: {},
      extraAllowed: ['OPENCODE_*', 'MY_FLAG'],
      homeDirectory: '/tmp/job-home',
    });
    expect(environment.HOME).toBe('/tmp/job-home');
    expect(environment.OPENCODE_CONFIG).toBe('/x');
    expect(environment.OPENCODE_DISABLE_AUTOUPDATE).toBe('1');
    expect(environment.MY_FLAG).toBe('on');
    expect(environment.ANTHROPIC_API_KEY).toBeUndefined();
  });

  it('keeps names by suffix for a `*SUFFIX` pattern, and nothing that merely contains the suffix', () => {
    const environment = buildCoderEnvironment({
      parentEnv: { ...parentEnv, MISTRAL_API_KEY: 'm', MY_API_KEY_FILE: '/k' },
      credentials: {},
      extraAllowed: ['*_API_KEY'],
    });
    expect(environment.MISTRAL_API_KEY).toBe('m');
    expect(environment.ANTHROPIC_API_KEY).toBe('sk-ant-other');
    expect(environment.MY_API_KEY_FILE).toBeUndefined();
    expect(environment.GITHUB_TOKEN).toBeUndefined();
  });

  it('documents every kept name in the exported list', () => {
    expect(CODER_ENVIRONMENT_ALLOW_LIST).toContain('LC_*');
    expect(CODER_ENVIRONMENT_ALLOW_LIST).not.toContain('SSH_AUTH_SOCK');
  });
});
