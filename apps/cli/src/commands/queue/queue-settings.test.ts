import { afterEach, describe, expect, it } from 'vitest';
import { type CliFixture, createCliFixture } from '../../testing/cli-fixture.js';

describe('queue.url', () => {
  let fixture: CliFixture | undefined;
  afterEach(() => {
    fixture?.cleanup();
    fixture = undefined;
  });

  it('missing: snodo submit and snodo worker name the key and the command that sets it (exit 2)', async () => {
    fixture = createCliFixture();
    for (const args of [['submit', 'Add a file'], ['worker']]) {
      const result = await fixture.snodo(args);
      expect(result.exitCode, result.all).toBe(2);
      expect(result.stderr).toContain(`\`snodo ${args[0]}\` needs a queue, and config has no \`queue.url\``);
      expect(result.stderr).toContain('snodo config set queue.url redis://127.0.0.1:6379');
    }
  }, 60_000);

  it('is set with snodo config set, and a URL of another scheme is refused by name', async () => {
    fixture = createCliFixture();
    const set = await fixture.snodo(['config', 'set', 'queue.url', 'redis://127.0.0.1:6379']);
    expect(set.exitCode, set.all).toBe(0);
    fixture.writeConfig('queue:\n  url: http://127.0.0.1:6379\n');
    const submit = await fixture.snodo(['submit', 'Add a file']);
    expect(submit.exitCode, submit.all).toBe(2);
    expect(submit.stderr).toContain('the scheme http: is not supported');
  }, 60_000);
});
