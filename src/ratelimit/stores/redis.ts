/**
 * @module Redis counters shared by every instance, on one server, a Cluster or a Sentinel-watched
 * master: atomic script calls bounded by a short timeout, reconnecting by itself after an outage.
 * Increments wait for no timer: one goes out once the requests read with it are counted, and those
 * that arrive while it is answered go out together (one round trip, one command for Redis to parse
 * per script call), so a busy instance pays per batch, not per request.
 *
 * Exact from the first request: until the first connection is made, commands wait for it (at most
 * CONNECT_TIMEOUT_MS from the first of them) instead of failing; only a store that failed to connect,
 * or lost its connection, rejects, and the limiter then applies the failure policy.
 */
import { within } from '../../util/deadline.ts';
import { CONNECT_TIMEOUT_MS, connectRedis } from './redis-connection.ts';
import { batchedIncrements } from './redis-script.ts';
import { storeError } from './redis-errors.ts';
import type { RedisTarget } from './choice.ts';
import { StoreError, type CounterStore, type StoreOptions } from '../store.ts';

export function createRedisStore(
  target: RedisTarget,
  { commandTimeoutMs = 250, keyPrefix = 'ratelimit', maxPendingCommands = 10_000 }: StoreOptions = {},
): CounterStore {
  const connection = connectRedis(target, { maxPendingCommands });

  // Down: the first connection failed, a command failed, or one went unanswered (a hung Redis keeps
  // its connection open and answers nothing). While down, requests are not sent to Redis at all and
  // fail at once, so they neither wait nor pile up, nor count late when Redis resumes; one read of
  // the key that failed at a time (every second, and on requests) probes until it answers. In a
  // cluster that read goes to the master of the failed key's slot: the store is back only once that
  // part of the keyspace is served again, so a failover is one loss and one recovery, not a flicker
  // between the masters that answer and the one that does not.
  let connecting = true;
  let closed = false;
  let down: { error: StoreError; probeKey: string; timer: ReturnType<typeof setInterval> } | undefined;
  // When the probe in flight was sent (0: none). One unanswered after a second is not waited for:
  // a cluster client may hold it while it connects to a node that is gone for good.
  let probeSentAt = 0;
  const firstSettled = (connected: boolean) => {
    if (!connecting) return;
    connecting = false;
    if (!connected) fail(new StoreError('Redis is not connected'), `${keyPrefix}:probe`);
  };
  void connection.firstConnection.then(firstSettled);
  // The wait starts with the first request that needs Redis, not with the store: the process may
  // spend its first second building everything else. A first connection slower than that has failed.
  let firstWait: Promise<void> | undefined;
  const firstConnection = () =>
    (firstWait ??= within(CONNECT_TIMEOUT_MS, connection.firstConnection).then(
      () => {},
      () => firstSettled(false),
    ));

  function fail(error: StoreError, probeKey: string): void {
    if (down || closed) return;
    down = { error, probeKey, timer: setInterval(probe, CONNECT_TIMEOUT_MS) };
  }

  function probe(): void {
    if (!down || (probeSentAt && Date.now() - probeSentAt < CONNECT_TIMEOUT_MS)) return;
    const sentAt = (probeSentAt = Date.now());
    const failed = down;
    connection
      .get(failed.probeKey)
      .then(
        () => {
          if (down !== failed) return;
          clearInterval(failed.timer);
          down = undefined;
        },
        () => {},
      )
      .finally(() => probeSentAt === sentAt && (probeSentAt = 0));
  }

  function failing(): Promise<never> | undefined {
    if (!down) return undefined;
    probe();
    return Promise.reject(down.error);
  }

  /** Runs one command unless the store is down, and gives up on it after `commandTimeoutMs`. */
  async function bounded<T>(key: string, command: () => Promise<T>): Promise<T> {
    if (connecting) await firstConnection();
    const refused = failing();
    if (refused) return refused;
    const late = () => {
      const error = new StoreError(`Redis did not answer within ${commandTimeoutMs} ms`);
      fail(error, key);
      return error;
    };
    return within(commandTimeoutMs, command(), late).catch((cause: unknown) => {
      const error = storeError(cause);
      if (!(cause instanceof StoreError)) fail(error, key);
      throw error;
    });
  }

  // Split into as many script calls as the mode needs.
  const { keyOf, increment } = batchedIncrements({
    keyPrefix,
    maxPendingCommands,
    tooMany: 'too many Redis commands waiting for an answer',
    split: connection.split,
    count: (group) => bounded(group[0]!.key, () => connection.increment(group)),
    // After the pass over the sockets that read them (Node, Bun and Deno all have setImmediate): in
    // a microtask, the first request read went out alone and the others waited for its answer, so
    // batches alternated 1 and 31 requests with 32 clients, two round trips where one does.
    schedule: setImmediate,
  });

  return {
    kind: 'redis',
    redisMode: connection.mode,
    increment,
    current(key, windowStart) {
      const name = keyOf(key, windowStart);
      return bounded(name, async () => Number((await connection.get(name)) ?? 0));
    },
    close() {
      closed = true;
      clearInterval(down?.timer);
      return connection.close();
    },
  };
}
