/**
 * The official Redis client in each of its three modes (src/ratelimit/stores/redis-connection.ts), against
 * real redis-server processes: one server, a 3-master Redis Cluster and a Sentinel-watched master.
 * The counting script (atomic, expiry on the first count only, surviving an emptied script cache),
 * how a batch may be split, failing fast instead of queueing while Redis is away, the outcome of the
 * first connection, and connecting later by itself when Redis, a seed node or the sentinel was
 * down at first.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectRedis, type RedisConnection } from '../../../src/ratelimit/stores/redis-connection.ts';
import type { Increment } from '../../../src/ratelimit/stores/redis-script.ts';
import type { RedisTarget } from '../../../src/ratelimit/stores/choice.ts';
import { freePort, sleep } from '../../support/net.ts';
import {
  redisCli,
  startCluster,
  startRedis,
  startSentinel,
  type RedisClusterProcesses,
  type RedisSentinelProcesses,
  type RedisServer,
} from '../../support/redis.ts';

const OPTIONS = { commandTimeoutMs: 250, maxPendingCommands: 100 };

/** Connections made by a test, closed after it. */
const open: RedisConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

function connect(target: RedisTarget, options = OPTIONS): RedisConnection {
  const connection = connectRedis(target, options);
  open.push(connection);
  return connection;
}

/** Retries `increment` until it is answered (Redis coming back), or fails after `timeoutMs`. */
async function countOnceBack(connection: RedisConnection, increments: Increment[], timeoutMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await connection.increment(increments);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}

/** How long a promise takes to settle, and whether it was fulfilled. */
async function timed(promise: Promise<unknown>): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  const ok = await promise.then(
    () => true,
    () => false,
  );
  return { ms: performance.now() - started, ok };
}

/**
 * `counting()` while watching for a per-command timeout of the client's own (node-redis 6 gives each
 * command one by default: an AbortSignal and a timer per command). The store bounds each call itself.
 */
async function withoutClientTimeouts<T>(counting: () => Promise<T>): Promise<T> {
  const timeouts = vi.spyOn(AbortSignal, 'timeout');
  try {
    const counted = await counting();
    expect(timeouts).not.toHaveBeenCalled();
    return counted;
  } finally {
    timeouts.mockRestore();
  }
}

describe('one server', () => {
  let redis: RedisServer;
  let target: RedisTarget;
  beforeAll(async () => {
    redis = await startRedis();
    target = { mode: 'standalone', url: redis.url() };
  });
  afterAll(() => redis?.dispose());
  afterEach(async () => {
    if (!redis.running) await redis.start();
  });

  it('connects, and counts a batch in one script call: each key in order, a repeated key twice', async () => {
    const connection = connect(target);
    expect(connection.mode).toBe('standalone');
    expect(await connection.firstConnection).toBe(true);
    const batch = [
      { key: 'one:a', ttlMs: 5000 },
      { key: 'one:b', ttlMs: 5000 },
      { key: 'one:a', ttlMs: 5000 },
    ];
    expect(connection.split(batch)).toEqual([batch]);
    expect(await withoutClientTimeouts(() => connection.increment(batch))).toEqual([1, 1, 2]);
    expect(await connection.get('one:a')).toBe('2');
    expect(await connection.get('one:missing')).toBeNull();
  });

  it('counts the repeats of a key in one INCRBY: each request still gets its own count, in order', async () => {
    const connection = connect(target);
    expect(await connection.firstConnection).toBe(true);
    await connection.increment([{ key: 'by:a', ttlMs: 5000 }]);
    await redisCli(redis.port, 'config', 'resetstat');
    const batch = ['by:a', 'by:b', 'by:a', 'by:a', 'by:b'].map((key) => ({ key, ttlMs: 5000 }));
    expect(await connection.increment(batch)).toEqual([2, 1, 3, 4, 2]);
    const stats = await redisCli(redis.port, 'info', 'commandstats');
    expect(stats).toMatch(/cmdstat_incrby:calls=2,/);
    expect(stats).not.toMatch(/cmdstat_incr:/);
    expect((await redisCli(redis.port, 'get', 'by:a')).trim()).toBe('4');
    expect(Number(await redisCli(redis.port, 'pttl', 'by:b'))).toBeGreaterThan(4000);
  });

  it('sets the expiry with the first count of a key, and only then', async () => {
    const connection = connect(target);
    expect(await connection.firstConnection).toBe(true);
    await connection.increment([{ key: 'ttl:a', ttlMs: 5000 }]);
    await connection.increment([{ key: 'ttl:a', ttlMs: 600_000 }]);
    const ttl = Number(await redisCli(redis.port, 'pttl', 'ttl:a'));
    expect(ttl).toBeGreaterThan(4000);
    expect(ttl).toBeLessThanOrEqual(5000);
  });

  it('counts on after the script cache is emptied, as after a Redis restart', async () => {
    const connection = connect(target);
    expect(await connection.firstConnection).toBe(true);
    expect(await connection.increment([{ key: 'flush:a', ttlMs: 5000 }])).toEqual([1]);
    expect((await redisCli(redis.port, 'script', 'flush')).trim()).toBe('OK');
    expect(await connection.increment([{ key: 'flush:a', ttlMs: 5000 }])).toEqual([2]);
  });

  it('fails at once while Redis is down, instead of queueing, and counts again once it is back', async () => {
    const connection = connect(target);
    expect(await connection.firstConnection).toBe(true);
    await redis.kill();
    await sleep(50);
    const whileDown = await timed(connection.increment([{ key: 'down:a', ttlMs: 60_000 }]));
    expect(whileDown.ok).toBe(false);
    expect(whileDown.ms).toBeLessThan(100);
    await redis.start();
    // The same connection reconnects by itself.
    expect(await countOnceBack(connection, [{ key: 'down:a', ttlMs: 60_000 }])).toEqual([1]);
  });

  it('refuses a command past the queue bound while Redis hangs, and answers the others once it resumes', async () => {
    const connection = connect(target, { ...OPTIONS, maxPendingCommands: 10 });
    expect(await connection.firstConnection).toBe(true);
    redis.pause();
    try {
      const pending = Array.from({ length: 10 }, (_, i) => connection.increment([{ key: `queue:${i}`, ttlMs: 60_000 }]));
      await expect(connection.increment([{ key: 'queue:over', ttlMs: 60_000 }])).rejects.toThrow('The queue is full');
      redis.resume();
      expect(await Promise.all(pending)).toEqual(Array.from({ length: 10 }, () => [1]));
    } finally {
      redis.resume();
    }
  });

  it('reports a first connection that failed, and connects later by itself', async () => {
    await redis.stop();
    const connection = connect(target);
    expect(await connection.firstConnection).toBe(false);
    await redis.start();
    expect(await countOnceBack(connection, [{ key: 'late:a', ttlMs: 60_000 }])).toEqual([1]);
  });

  it('closes at once when Redis was never reached, and counts nothing after', async () => {
    const connection = connect({ mode: 'standalone', url: `redis://127.0.0.1:${await freePort()}` });
    expect(await connection.firstConnection).toBe(false);
    const closing = await timed(connection.close());
    expect(closing).toMatchObject({ ok: true });
    expect(closing.ms).toBeLessThan(500);
    await expect(connection.increment([{ key: 'closed:a', ttlMs: 1000 }])).rejects.toThrow();
  });

  it('reports no first connection when closed before it is made', async () => {
    const connection = connect(target);
    await connection.close();
    expect(await connection.firstConnection).toBe(false);
  });
});

describe('Redis Cluster', () => {
  let cluster: RedisClusterProcesses;
  let target: RedisTarget;
  beforeAll(async () => {
    cluster = await startCluster();
    target = { mode: 'cluster', urls: cluster.urls() };
  });
  afterAll(() => cluster?.dispose());

  /** The port of the master that serves `key`'s slot. */
  async function masterOf(key: string): Promise<number> {
    const slot = Number(await redisCli(cluster.nodes[0]!.port, 'cluster', 'keyslot', key));
    const master = (await cluster.topology()).find(
      (node) =>
        node.role === 'master' &&
        node.slots.some((range) => {
          const [from, to = from] = range.split('-').map(Number);
          return slot >= from! && slot <= to!;
        }),
    );
    return master!.port;
  }

  it('splits a batch by key: the repeats of a key together, in order, keys in order of arrival', () => {
    const connection = connect(target);
    const [a1, b1, a2, c1, b2] = ['a', 'b', 'a', 'c', 'b'].map((key) => ({ key, ttlMs: 1000 }));
    expect(connection.split([a1!, b1!, a2!, c1!, b2!])).toEqual([[a1, a2], [b1, b2], [c1]]);
  });

  it('discovers the cluster from its seeds and counts each key on the master of its slot', async () => {
    const connection = connect(target);
    expect(connection.mode).toBe('cluster');
    expect(await connection.firstConnection).toBe(true);
    // Keys spread over the three masters.
    const keys = Array.from({ length: 12 }, (_, i) => `cluster:${i}`);
    const batch = keys.flatMap((key) => [
      { key, ttlMs: 60_000 },
      { key, ttlMs: 60_000 },
    ]);
    for (const group of connection.split(batch)) expect(await withoutClientTimeouts(() => connection.increment(group))).toEqual([1, 2]);
    const ports = new Set<number>();
    for (const key of keys) {
      const port = await masterOf(key);
      ports.add(port);
      // Asked directly (no redirection), the master holds the count.
      expect((await redisCli(port, 'get', key)).trim(), key).toBe('2');
      expect(await connection.get(key)).toBe('2');
    }
    expect(ports.size).toBe(3);
  });

  it('is refused one script call over keys of two slots (CROSSSLOT): why a batch is split', async () => {
    const connection = connect(target);
    expect(await connection.firstConnection).toBe(true);
    expect(await redisCli(cluster.nodes[0]!.port, 'cluster', 'keyslot', 'a')).not.toBe(
      await redisCli(cluster.nodes[0]!.port, 'cluster', 'keyslot', 'b'),
    );
    await expect(
      connection.increment([
        { key: 'a', ttlMs: 1000 },
        { key: 'b', ttlMs: 1000 },
      ]),
    ).rejects.toThrow(/^CROSSSLOT/);
  });

  it('keeps trying a seed that is down, and connects once it answers', async () => {
    const replica = (await cluster.topology()).find((node) => node.role === 'replica')!;
    const seed = cluster.server(replica.port);
    await seed.kill();
    try {
      const connection = connect({ mode: 'cluster', urls: [seed.url()] });
      expect(await connection.firstConnection).toBe(false);
      await sleep(300);
      await seed.start();
      expect(await countOnceBack(connection, [{ key: 'seed:a', ttlMs: 60_000 }])).toEqual([1]);
    } finally {
      if (!seed.running) await seed.start();
      await cluster.settled();
    }
  });
});

describe('Redis with Sentinel', () => {
  let redis: RedisSentinelProcesses;
  let target: RedisTarget;
  beforeAll(async () => {
    redis = await startSentinel();
    target = { mode: 'sentinel', urls: redis.urls(), masterName: redis.masterName };
  });
  afterAll(() => redis?.dispose());

  it('finds the master through the sentinel and counts there, a batch in one call', async () => {
    const connection = connect(target);
    expect(connection.mode).toBe('sentinel');
    expect(await connection.firstConnection).toBe(true);
    const batch = [
      { key: 'sentinel:a', ttlMs: 60_000 },
      { key: 'sentinel:b', ttlMs: 60_000 },
      { key: 'sentinel:a', ttlMs: 60_000 },
    ];
    expect(connection.split(batch)).toEqual([batch]);
    expect(await withoutClientTimeouts(() => connection.increment(batch))).toEqual([1, 1, 2]);
    expect(await redis.masterPort()).toBe(redis.master.port);
    expect((await redisCli(redis.master.port, 'get', 'sentinel:a')).trim()).toBe('2');
    expect(await connection.get('sentinel:a')).toBe('2');
  });

  it('keeps asking a sentinel that is down, and counts soon after it answers', async () => {
    await redis.sentinel.stop();
    try {
      const connection = connect(target);
      // Past the second a request waits for the first connection (CONNECT_TIMEOUT_MS). The store
      // sends nothing meanwhile: a command now would wait for the client's attempt to find a sentinel.
      await sleep(1500);
      await redis.sentinel.start();
      const back = performance.now();
      expect(await countOnceBack(connection, [{ key: 'sentinel:late', ttlMs: 60_000 }])).toEqual([1]);
      expect(performance.now() - back).toBeLessThan(5000);
    } finally {
      if (!redis.sentinel.running) await redis.sentinel.start();
    }
  });
});
