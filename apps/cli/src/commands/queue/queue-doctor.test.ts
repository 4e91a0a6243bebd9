import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliFixture, createCliFixture } from '../../testing/cli-fixture.js';
import { REDIS_SERVER, REDIS_SKIP_REASON, type RedisServer, startRedis } from './queue-test-fixture.js';

describe.skipIf(REDIS_SERVER === undefined)('snodo doctor with queue.url', () => {
  let fixture: CliFixture | undefined;
  let redis: RedisServer | undefined;
  afterEach(async () => {
    await redis?.stop();
    fixture?.cleanup();
    fixture = undefined;
    redis = undefined;
  });

  it('says the queue answers, and names the fix when it does not', async () => {
    fixture = createCliFixture();
    redis = await startRedis(join(fixture.directory, 'redis'));
    fixture.writeConfig(`queue:\n  url: ${redis.url}\n`);
    const up = await fixture.snodo(['doctor']);
    expect(up.stdout).toMatch(new RegExp(`queue +redis at ${redis.url}/?: 0 waiting, 0 active`));
    await redis.stop();
    const down = await fixture.snodo(['doctor']);
    expect(down.stdout).toMatch(/queue +redis at redis:\/\/127\.0\.0\.1:\d+\/? does not answer/);
    expect(down.stdout).toContain('queue: Start the server, or fix queue.url');
    expect(down.exitCode).toBe(1);
  }, 120_000);

  it('has no queue line when queue.url is not set', async () => {
    fixture = createCliFixture();
    const result = await fixture.snodo(['doctor']);
    expect(result.stdout).not.toMatch(/^\S*\s*queue /m);
  }, 60_000);
});

if (REDIS_SERVER === undefined) {
  describe('snodo doctor with queue.url', () => {
    it.skip(REDIS_SKIP_REASON, () => undefined);
  });
}
