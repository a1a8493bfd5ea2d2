/**
 * @module The one memoiser: a value made on the first call, then the same value itself. A promise is
 * handed out while it settles and replaced by its value once fulfilled, so later callers need no
 * turn of the event loop; a rejected one is not kept, and the next call tries again.
 */
export function once<T>(make: () => Promise<T>): () => T | Promise<T>;
export function once<T>(make: () => T): () => T;
export function once<T>(make: () => T | Promise<T>): () => T | Promise<T> {
  let made: { value: T } | undefined;
  let pending: Promise<T> | undefined;
  return () => {
    if (made) return made.value;
    if (pending) return pending;
    const value = make();
    if (!(value instanceof Promise)) return (made = { value }).value;
    pending = value.then(
      (settled) => {
        made = { value: settled };
        return settled;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
}
