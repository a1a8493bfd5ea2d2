/** @module Connecting again and again: the backoff between attempts, the retry loop, and the first connection's outcome. */

export const backoff = (retries: number) => Math.min(50 * 2 ** retries, 2000);

/** A promise settled once, by the first connection or the failure of the first attempt. */
export function firstConnectionLatch() {
  let settle!: (connected: boolean) => void;
  const promise = new Promise<boolean>((resolve) => (settle = resolve));
  return { promise, settle: (connected: boolean) => settle(connected) };
}

/** Calls `connect` until it succeeds or `stop()` is called, backing off between attempts. */
export function retrying(connect: () => Promise<unknown>, first: { settle(connected: boolean): void }) {
  let stopped = false;
  let wake: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  void (async () => {
    for (let attempt = 0; !stopped; attempt++) {
      try {
        await connect();
        first.settle(true);
        return;
      } catch {
        first.settle(false);
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, backoff(attempt));
      });
    }
  })();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
    },
  };
}
