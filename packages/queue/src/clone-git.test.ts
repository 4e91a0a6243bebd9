import { describe, expect, it } from 'vitest';
import { CloneLock } from './clone-git.js';

describe('CloneLock', () => {
  it('runs work one piece at a time, in order, and goes on after a piece that threw', async () => {
    const lock = new CloneLock();
    const order: string[] = [];
    const piece = (name: string, ms: number) =>
      lock.run(async () => {
        order.push(`${name} start`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        order.push(`${name} end`);
      });
    const failing = lock.run(async () => {
      throw new Error('git failed');
    });
    await Promise.all([piece('a', 20), failing.catch(() => undefined), piece('b', 1)]);
    expect(order).toEqual(['a start', 'a end', 'b start', 'b end']);
  });

  it('released: other work runs while the holder only reads, and the holder gets the lock back after it', async () => {
    const lock = new CloneLock();
    const order: string[] = [];
    let letOtherIn: () => void = () => undefined;
    const otherQueued = new Promise<void>((resolve) => {
      letOtherIn = resolve;
    });
    const holder = lock.run(async () => {
      order.push('landing fetch');
      await lock.released(async () => {
        order.push('re-check start');
        letOtherIn();
        await new Promise((resolve) => setTimeout(resolve, 30));
        order.push('re-check end');
      });
      order.push('landing push');
    });
    await otherQueued;
    const other = lock.run(async () => {
      order.push('task push');
      await new Promise((resolve) => setTimeout(resolve, 60));
      order.push('task push done');
    });
    await Promise.all([holder, other]);
    // The task's git ran during the re-check; the landing's push waited until it was done.
    expect(order).toEqual([
      'landing fetch',
      're-check start',
      'task push',
      're-check end',
      'task push done',
      'landing push',
    ]);
  });
});
