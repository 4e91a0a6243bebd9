import { describe, expect, it } from 'vitest';
import { resolveRelativeUrl } from './submodule-urls.js';

describe('resolveRelativeUrl (git’s rule for relative submodule URLs)', () => {
  it('resolves against URLs, scp-like remotes and paths, and leaves absolute URLs alone', () => {
    expect(resolveRelativeUrl('https://example.com/org/app.git', '../lib.git')).toBe(
      'https://example.com/org/lib.git',
    );
    expect(resolveRelativeUrl('https://example.com/org/app.git/', './vendor/x')).toBe(
      'https://example.com/org/app.git/vendor/x',
    );
    expect(resolveRelativeUrl('git@example.com:org/app.git', '../lib.git')).toBe(
      'git@example.com:org/lib.git',
    );
    expect(resolveRelativeUrl('git@example.com:org/app.git', '../../lib.git')).toBe(
      'git@example.com:lib.git',
    );
    expect(resolveRelativeUrl('/srv/git/org/app', '../lib')).toBe('/srv/git/org/lib');
    expect(resolveRelativeUrl('/srv/git/app', 'https://example.com/lib.git')).toBe(
      'https://example.com/lib.git',
    );
  });
});
