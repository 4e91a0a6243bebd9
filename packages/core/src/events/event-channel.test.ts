import { describe, expect, it } from 'vitest';
import { EventChannel } from './event-channel.js';

describe('EventChannel', () => {
  it('delivers events pushed before and after the consumer starts, in order, then ends on close', async () => {
    const channel = new EventChannel<number>();
    channel.push(1);
    const received: number[] = [];
    const consuming = (async () => {
      for await (const event of channel) received.push(event);
    })();
    channel.push(2);
    await Promise.resolve();
    channel.push(3);
    channel.close();
    channel.push(4);
    await consuming;
    expect(received).toEqual([1, 2, 3]);
  });

  it('lets a consumer stop early without blocking later pushes', async () => {
    const channel = new EventChannel<number>();
    channel.push(1);
    channel.push(2);
    for await (const event of channel) {
      expect(event).toBe(1);
      break;
    }
    expect(() => channel.push(3)).not.toThrow();
    channel.close();
  });
});
