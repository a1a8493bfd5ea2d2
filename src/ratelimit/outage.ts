/**
 * @module A shared store's outage, seen and said once, whatever the store: the first call that fails
 * (a real failure, or a deadline the store itself passed) marks the store down and is logged once;
 * requests then skip the store at once instead of waiting for it (fast-fail), and those already
 * waiting on it are let go; one probe write at a time (every second, and on requests) brings it back,
 * logged once. Only a successful write ends an outage: a store whose reads answer while its writes
 * fail (Deno KV behind another process's write lock) stays down until it takes writes again.
 */

export interface OutageOptions {
  /** One write to the store (a count on a key of its own); resolving means the store takes writes again. */
  probe(): number | Promise<number>;
  /** Called once when the store is lost (with the reason) and once when it is back (undefined). */
  changed(reason: string | undefined): void;
  /** How often a store that is down is probed. */
  probeEveryMs?: number;
}

/** A request waiting on the store, linked to the others that wait. */
interface Waiter {
  release(): void;
  previous: Waiter | undefined;
  next: Waiter | undefined;
}

export class Outage {
  readonly #probe: OutageOptions['probe'];
  readonly #changed: OutageOptions['changed'];
  readonly #probeEveryMs: number;
  #reason: string | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #probing = false;
  #probedAt = 0;
  #closed = false;
  /**
   * Requests waiting on the store, let go (answered without it) when it is lost: a list whose links
   * are cut as each request leaves it. Not a Set: as entries come and go V8 replaces a Set's table,
   * the replaced one still pointing at the entries it held, and once a table has been promoted each
   * new one is allocated in the old generation too. Young collections then keep every waiting request,
   * and everything it holds, until a full one: under load on Redis nearly every request was promoted,
   * with several full collections a second (docs/performance.md, eighth round).
   */
  #waiting: Waiter | undefined;
  /**
   * Bumped on each loss and recovery. The answer to a call sent before the last change says nothing
   * about the store now (a late reply, a timeout racing a recovery), so it changes nothing.
   */
  generation = 0;

  constructor({ probe, changed, probeEveryMs = 1000 }: OutageOptions) {
    this.#probe = probe;
    this.#changed = changed;
    this.#probeEveryMs = probeEveryMs;
  }

  /** Why the store is down, while it is. */
  get reason(): string | undefined {
    return this.#reason;
  }

  /** Whether requests must skip the store now; while down, starts a probe when one is due. */
  skips(now = Date.now()): boolean {
    if (this.#reason === undefined) return false;
    if (now - this.#probedAt >= this.#probeEveryMs) this.#sendProbe();
    return true;
  }

  /** A call sent in `generation` failed: the store is lost, unless it was already or the call is stale. */
  failed(reason: string, generation: number): void {
    if (this.#reason !== undefined || generation !== this.generation || this.#closed) return;
    this.#reason = reason;
    this.generation++;
    this.#probedAt = Date.now();
    this.#timer = setInterval(() => this.#sendProbe(), this.#probeEveryMs);
    // A process with nothing else to do may exit while the store is down (Node, Bun, Deno).
    (this.#timer as { unref?: () => void }).unref?.();
    this.#changed(reason);
    let waiter = this.#waiting;
    this.#waiting = undefined;
    while (waiter) {
      const { next } = waiter;
      waiter.previous = waiter.next = undefined;
      waiter.release();
      waiter = next;
    }
  }

  /**
   * Waits for `call` unless the store is lost meanwhile: `released` answers at once then, so that no
   * request waits out a store already known down.
   */
  waitFor<V, T>(call: Promise<V>, settled: (value: V) => T, failed: (error: Error) => T, released: () => T): Promise<T> {
    return new Promise<T>((resolve) => {
      let done = false;
      const waiter: Waiter = {
        release: () => {
          done = true;
          resolve(released());
        },
        previous: undefined,
        next: this.#waiting,
      };
      if (this.#waiting) this.#waiting.previous = waiter;
      this.#waiting = waiter;
      const finish = (answer: () => T) => {
        if (done) return;
        done = true;
        this.#leave(waiter);
        resolve(answer());
      };
      call.then(
        (value) => finish(() => settled(value)),
        (error: Error) => finish(() => failed(error)),
      );
    });
  }

  #leave(waiter: Waiter): void {
    const { previous, next } = waiter;
    if (previous) previous.next = next;
    else this.#waiting = next;
    if (next) next.previous = previous;
    waiter.previous = waiter.next = undefined;
  }

  #sendProbe(): void {
    if (this.#probing || this.#reason === undefined || this.#closed) return;
    this.#probing = true;
    this.#probedAt = Date.now();
    const generation = this.generation;
    new Promise<number>((resolve) => resolve(this.#probe()))
      .then(
        () => {
          if (generation !== this.generation || this.#closed) return;
          clearInterval(this.#timer);
          this.#reason = undefined;
          this.generation++;
          this.#changed(undefined);
        },
        () => {},
      )
      .finally(() => {
        this.#probing = false;
      });
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
  }
}
