/**
 * @module One write per client key at a time, for a store that adds to one item per call (DynamoDB,
 * Deno KV): the increments of a key that arrive while its write is out wait for it and go out
 * together as the next write, which adds them all; each request gets its own number of the range.
 * So a burst of one client costs the store a few writes, not one per request, and its deadline is
 * the store's own per write, not a queue's. A write that fails fails the increments queued behind it
 * too: they would only wait out a store that just failed.
 */

/** Adds `n` to the count of `key` in its window, and resolves with the count after. */
export type Add = (key: string, windowStart: number, windowMs: number, n: number) => Promise<number>;

interface Waiting {
  resolve(count: number): void;
  reject(error: unknown): void;
}

interface Queue {
  sending: boolean;
  waiting: Waiting[];
}

export function coalesced(add: Add): (key: string, windowStart: number, windowMs: number) => Promise<number> {
  const queues = new Map<string, Queue>();

  function send(id: string, key: string, windowStart: number, windowMs: number): void {
    const queue = queues.get(id)!;
    if (queue.sending) return;
    if (queue.waiting.length === 0) return void queues.delete(id);
    const batch = queue.waiting;
    queue.waiting = [];
    queue.sending = true;
    add(key, windowStart, windowMs, batch.length).then(
      (after) => {
        const before = after - batch.length;
        for (const [i, waiting] of batch.entries()) waiting.resolve(before + i + 1);
        queue.sending = false;
        send(id, key, windowStart, windowMs);
      },
      (error: unknown) => {
        const behind = queue.waiting;
        queues.delete(id);
        for (const waiting of [...batch, ...behind]) waiting.reject(error);
      },
    );
  }

  return (key, windowStart, windowMs) =>
    new Promise<number>((resolve, reject) => {
      const id = `${windowStart}:${key}`;
      let queue = queues.get(id);
      if (!queue) queues.set(id, (queue = { sending: false, waiting: [] }));
      queue.waiting.push({ resolve, reject });
      // Increments of the same tick join the first one's write.
      if (queue.waiting.length === 1 && !queue.sending) queueMicrotask(() => send(id, key, windowStart, windowMs));
    });
}
