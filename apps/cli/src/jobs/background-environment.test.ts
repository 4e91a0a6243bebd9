import { describe, expect, it } from 'vitest';
import { backgroundEnvironment } from './background-environment.js';

describe('backgroundEnvironment', () => {
  it("keeps what a run reads (PATH, snodo's settings, provider keys, named variables) and drops the rest", () => {
    const environment = backgroundEnvironment(
      {
        PATH: '/usr/bin',
        HOME: '/home/ana',
        SNODO_HOME: '/home/ana/.snodo',
        XDG_CONFIG_HOME: '/home/ana/.config',
        GIT_CONFIG_GLOBAL: '/home/ana/.gitconfig',
        ANTHROPIC_API_KEY: 'sk-ant',
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        MY_GATEWAY_SECRET: 'named in config',
        NODE_OPTIONS: '--require /tmp/inject.js',
        LD_PRELOAD: '/tmp/inject.so',
        SSH_AUTH_SOCK: '/run/ssh.sock',
        GITHUB_TOKEN: 'ghp_x',
        FORCE_COLOR: '1',
        UNSET: undefined,
      },
      ['MY_GATEWAY_SECRET'],
    );
    expect(environment).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/ana',
      SNODO_HOME: '/home/ana/.snodo',
      XDG_CONFIG_HOME: '/home/ana/.config',
      GIT_CONFIG_GLOBAL: '/home/ana/.gitconfig',
      ANTHROPIC_API_KEY: 'sk-ant',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      MY_GATEWAY_SECRET: 'named in config',
      NO_COLOR: '1',
    });
  });
});
