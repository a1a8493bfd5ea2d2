/** A value, or a promise of it where something had to wait (a remote store, a body to read, a document being built). */
export type Maybe<T> = T | Promise<T>;

/**
 * `next(value)`: at once when the value is ready, once it settles when it is a promise. A request that
 * waits on nothing is then answered in the turn it arrived in, which Bun and Deno send sooner than
 * an answer given as a promise.
 */
export const andThen = <T, U>(value: Maybe<T>, next: (value: T) => Maybe<U>): Maybe<U> =>
  value instanceof Promise ? value.then(next) : next(value);
