/**
 * A push-to-pull bridge: the pipeline pushes events as they happen; a consumer pulls them with
 * `for await`. Pushing never waits, so a slow or absent consumer cannot stall a run; events wait in
 * memory until read (a run emits hundreds, not millions). After `close()`, iteration ends once the buffer
 * is drained. A consumer that stops early (`break`) simply stops receiving.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private readonly waiting: Array<(result: IteratorResult<T>) => void> = [];
  private closed = false;
  private detached = false;

  push(event: T): void {
    if (this.closed || this.detached) return;
    const reader = this.waiting.shift();
    if (reader) reader({ value: event, done: false });
    else this.buffer.push(event);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const reader of this.waiting.splice(0)) reader({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const buffered = this.buffer.shift();
        if (buffered !== undefined) return Promise.resolve({ value: buffered, done: false });
        if (this.closed || this.detached) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.waiting.push(resolve));
      },
      return: () => {
        this.detached = true;
        this.buffer.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
