import { describe, expect, it } from 'vitest';
import { openQueueConnection } from './queue-connection.js';

describe('openQueueConnection', () => {
  it('chooses the backend from the scheme and masks a password in messages', () => {
    expect(openQueueConnection('redis://127.0.0.1:6379').kind).toBe('redis');
    expect(openQueueConnection('rediss://cache.example:6380/2').kind).toBe('redis');
    const postgres = openQueueConnection('postgres://snodo:hunter22@db.example:5432/queue');
    expect(postgres.kind).toBe('postgres');
    expect(postgres.displayUrl).toBe('postgres://snodo:***@db.example:5432/queue');
  });

  it('refuses what is not a queue URL, saying which forms work', () => {
    expect(() => openQueueConnection('localhost:6379')).toThrow(
      /scheme localhost: is not supported.*redis:\/\//,
    );
    expect(() => openQueueConnection('not a url')).toThrow(/it is not a URL/);
    expect(() => openQueueConnection('http://127.0.0.1')).toThrow(
      expect.objectContaining({ code: 'QUEUE_URL_INVALID' }),
    );
  });
});
