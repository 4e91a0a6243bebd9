import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openQueueConnection, type QueueConnection } from '../queue-connection.js';
import { startTestRedis, type TestRedisServer } from './redis-server.js';

/** What a describe block of Redis tests shares: a temporary directory, a redis-server, a connection. */
export interface RedisTestbed {
  readonly directory: string;
  readonly redis: TestRedisServer;
  readonly connection: QueueConnection;
}

/**
 * Registers `beforeAll`/`afterAll` hooks that start a redis-server of the tests in a fresh directory (and,
 * with `gitIdentity`, point git's global config at an identity of its own there, so the test's git and a
 * lander's read nothing of the machine's) and stop it afterwards. Read the fields inside tests and hooks.
 */
export function useRedisTestbed(prefix: string, options: { gitIdentity?: boolean } = {}): RedisTestbed {
  const state: { directory?: string; redis?: TestRedisServer; connection?: QueueConnection } = {};
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    state.directory = mkdtempSync(join(tmpdir(), `${prefix}-`));
    if (options.gitIdentity === true) {
      writeFileSync(
        join(state.directory, 'gitconfig'),
        '[user]\n\tname = Tester\n\temail = tester@example.com\n',
      );
      process.env.GIT_CONFIG_GLOBAL = join(state.directory, 'gitconfig');
      process.env.GIT_CONFIG_NOSYSTEM = '1';
    }
    state.redis = await startTestRedis(join(state.directory, 'redis'));
    state.connection = openQueueConnection(state.redis.url);
  });
  afterAll(async () => {
    await state.redis?.stop();
    if (state.directory !== undefined) rmSync(state.directory, { recursive: true, force: true });
    process.env = savedEnv;
  });
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`the Redis testbed's ${name} is read before its beforeAll ran`);
    return value;
  };
  return {
    get directory() {
      return ready(state.directory, 'directory');
    },
    get redis() {
      return ready(state.redis, 'redis');
    },
    get connection() {
      return ready(state.connection, 'connection');
    },
  };
}
