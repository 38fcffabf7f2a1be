// One async iterator read by many: each follower gets every value the source yields after it
// joined, in order. The source is read once, whatever the number of followers, and ended when the
// last follower leaves. A follower that falls `maxBacklog` values behind is ended with an error
// rather than let its backlog grow without bound.
export class Broadcast<T> {
  private readonly followers = new Set<Follower<T>>();
  private readonly source: AsyncIterator<T>;
  private readonly onClose: () => void;
  private readonly maxBacklog: number;
  private reading = false;
  private closed = false;

  /** `onClose` is called once, when the source ends or the last follower leaves: forget this broadcast. */
  constructor(source: AsyncIterator<T>, onClose: () => void, maxBacklog = 1000) {
    this.source = source;
    this.onClose = onClose;
    this.maxBacklog = maxBacklog;
  }

  /**
   * A new follower, or undefined when the broadcast has closed (make a new one). `onEnd` is called
   * once when the follower ends, whatever ends it (its return(), the source's end or error, its
   * backlog), even if nobody reads it any more.
   */
  join(onEnd?: () => void): AsyncIterableIterator<T> | undefined {
    if (this.closed) return undefined;
    const follower = new Follower<T>(() => this.leave(follower), this.maxBacklog, onEnd);
    this.followers.add(follower);
    void this.read();
    return follower;
  }

  private leave(follower: Follower<T>): void {
    this.followers.delete(follower);
    if (this.followers.size === 0) this.close();
  }

  private close(error?: unknown): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
    for (const follower of this.followers) follower.end(error);
    this.followers.clear();
    void this.source.return?.();
  }

  private async read(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      while (!this.closed) {
        const next = await this.source.next();
        if (next.done) break;
        for (const follower of this.followers) follower.push(next.value);
      }
      this.close();
    } catch (error) {
      this.close(error);
    }
  }
}

class Follower<T> implements AsyncIterableIterator<T> {
  private readonly backlog: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private failWaiting: ((error: unknown) => void) | undefined;
  private ended = false;
  private error: unknown;
  private readonly onLeave: () => void;
  private readonly maxBacklog: number;
  private readonly onEnd: (() => void) | undefined;

  constructor(onLeave: () => void, maxBacklog: number, onEnd: (() => void) | undefined) {
    this.onLeave = onLeave;
    this.maxBacklog = maxBacklog;
    this.onEnd = onEnd;
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  push(value: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = this.failWaiting = undefined;
      resolve({ done: false, value });
    } else if (this.backlog.length >= this.maxBacklog) {
      this.end(new Error(`This subscriber fell ${this.maxBacklog} events behind and was ended.`));
      this.onLeave();
    } else {
      this.backlog.push(value);
    }
  }

  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.error = error;
    this.onEnd?.();
    if (this.waiting) {
      const [resolve, reject] = [this.waiting, this.failWaiting!];
      this.waiting = this.failWaiting = undefined;
      if (error === undefined) resolve({ done: true, value: undefined });
      else reject(error);
    }
  }

  async next(): Promise<IteratorResult<T>> {
    if (this.backlog.length > 0) return { done: false, value: this.backlog.shift()! };
    if (this.ended) {
      if (this.error !== undefined) throw this.error;
      return { done: true, value: undefined };
    }
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failWaiting = reject;
    });
  }

  async return(): Promise<IteratorResult<T>> {
    if (!this.ended) {
      this.end();
      this.onLeave();
    }
    return { done: true, value: undefined };
  }
}
