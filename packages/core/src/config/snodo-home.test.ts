import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFilePath, expandTilde, resolveSnodoHome, worktreesDirectory } from './snodo-home.js';

describe('resolveSnodoHome', () => {
  it('defaults to ~/.snodo', () => {
    expect(resolveSnodoHome({ env: {}, homedir: '/home/ada' })).toBe('/home/ada/.snodo');
    expect(resolveSnodoHome({ env: { SNODO_HOME: '  ' }, homedir: '/home/ada' })).toBe('/home/ada/.snodo');
  });

  it('uses SNODO_HOME, tilde-expanded, instead', () => {
    expect(resolveSnodoHome({ env: { SNODO_HOME: '/srv/snodo' }, homedir: '/home/ada' })).toBe('/srv/snodo');
    expect(resolveSnodoHome({ env: { SNODO_HOME: '~/alt' }, homedir: '/home/ada' })).toBe('/home/ada/alt');
    expect(resolveSnodoHome({ env: { SNODO_HOME: '~' }, homedir: '/home/ada' })).toBe('/home/ada');
  });

  it('makes a relative SNODO_HOME absolute', () => {
    expect(resolveSnodoHome({ env: { SNODO_HOME: 'rel' }, homedir: '/home/ada' })).toBe(
      join(process.cwd(), 'rel'),
    );
  });

  it("leaves another user's ~name alone", () => {
    expect(expandTilde('~bob/x', '/home/ada')).toBe('~bob/x');
  });

  it('places config.yml and worktrees inside the home unless config says otherwise', () => {
    expect(configFilePath('/h')).toBe('/h/config.yml');
    expect(worktreesDirectory({ home: '/h', homedir: '/home/ada' })).toBe('/h/worktrees');
    expect(worktreesDirectory({ home: '/h', homedir: '/home/ada', worktreesDir: '~/trees' })).toBe(
      '/home/ada/trees',
    );
    expect(worktreesDirectory({ home: '/h', homedir: '/home/ada', worktreesDir: 'trees' })).toBe('/h/trees');
  });
});
