/** @module The one deadline: a promise bounded in time, for every call to a store that may not answer. */

/**
 * `promise`, or a rejection with `late()` once `ms` have passed without it settling. A process busy
 * past the deadline may find the answer already in its socket: one more turn of the event loop
 * (timers run before pending I/O is read) lets that answer count rather than declaring it late.
 */
export function within<T>(ms: number, promise: Promise<T>, late: () => Error = () => new Error(`no answer within ${ms} ms`)): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let turn: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => (turn = setTimeout(() => reject(late()), 0)), ms);
  });
  return Promise.race([promise, expired]).finally(() => {
    clearTimeout(timer);
    clearTimeout(turn);
  });
}
