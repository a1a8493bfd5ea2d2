/** @module The requests in flight, so that a graceful stop waits for them to be answered. */
export class InFlight {
  #count = 0;
  #waiting: (() => void)[] = [];

  get count(): number {
    return this.#count;
  }

  start(): void {
    this.#count++;
  }

  end(): void {
    if (--this.#count > 0) return;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }

  /** Resolves once no request is in flight; any number of callers may wait. */
  idle(): Promise<void> {
    return this.#count === 0 ? Promise.resolve() : new Promise((resolve) => this.#waiting.push(resolve));
  }
}
