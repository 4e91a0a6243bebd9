import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigStore } from '@snodo/core/config';
import { afterEach, describe, expect, it } from 'vitest';

describe('queue.url in snodo config show', () => {
  let home: string | undefined;
  afterEach(() => {
    if (home !== undefined) rmSync(home, { recursive: true, force: true });
  });

  it('is masked when it carries a password, and shown as is when it does not', () => {
    home = mkdtempSync(join(tmpdir(), 'snodo-queue-url-'));
    const store = new ConfigStore({ home });
    writeFileSync(
      join(home, 'config.yml'),
      'queue:\n  url: postgres://snodo:s3cret-passw0rd@db.example:5432/q\n',
      {
        mode: 0o600,
      },
    );
    expect(JSON.stringify(store.showConfig())).not.toContain('s3cret-passw0rd');
    writeFileSync(join(home, 'config.yml'), 'queue:\n  url: redis://127.0.0.1:6379\n', { mode: 0o600 });
    expect(JSON.stringify(store.showConfig())).toContain('redis://127.0.0.1:6379');
  });
});
