/**
 * The Redis store against a real redis-server: several handler instances share one quota, and an
 * outage (SIGKILL, a hang, unreachable at start-up) follows the failure policy and heals by itself.
 */
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../../src/handler.ts';
import { createRedisStore } from '../../../src/ratelimit/stores/redis.ts';
import { freePort } from '../../support/net.ts';
import { slowLink, startRedis, type RedisServer, type SlowLink } from '../../support/redis.ts';
import { closeHandlers, makeHandler, send } from '../../support/handler.ts';
import { awayFromWindowEdge, checkNetworkPolicies, eventually, limits, NETWORK_POLICIES } from '../../support/ratelimit.ts';
import { sleep } from '../../support/net.ts';

const WINDOW = 3600;
const HEALTH_CLIENT = '192.0.2.250';

interface Health {
  status: 'ok' | 'degraded';
  rateLimitStore: 'memory' | 'redis';
  reason?: string;
}

async function health(handler: Handler): Promise<{ status: number; body: Health }> {
  const response = await send(handler, '/api/v1/health', { address: HEALTH_CLIENT });
  return { status: response.status, body: await response.json() };
}

/** Polls health until it says ok, that is until a request went through Redis. */
async function healthy(handler: Handler, deadlineMs = 10_000): Promise<boolean> {
  return eventually(async () => (await health(handler)).body.status === 'ok', deadlineMs);
}

/** `count` requests in parallel, spread round-robin over the handlers, all from one client. */
function burst(handlers: Handler[], count: number, address: string, path = '/api/v1/product'): Promise<Response[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => send(handlers[i % handlers.length]!, path, { address })));
}

function tally(responses: Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('Redis store shared by four instances', () => {
  let redis: RedisServer;
  let handlers: Handler[];
  beforeAll(async () => {
    redis = await startRedis();
    handlers = await Promise.all(
      Array.from({ length: 4 }, () => makeHandler({ rateLimit: { quota: 25, windowSeconds: WINDOW, redisUrl: redis.url() } })),
    );
    for (const handler of handlers) expect(await healthy(handler), 'instance connected to Redis').toBe(true);
  });
  afterAll(async () => {
    await closeHandlers();
    await redis?.dispose();
  });

  it('admits exactly the quota in total under 60 concurrent requests', async () => {
    await awayFromWindowEdge(WINDOW);
    const responses = await burst(handlers, 60, '198.51.100.10');
    expect(tally(responses)).toEqual({ 200: 25, 429: 35 });
    // Each admitted request saw its own count: remaining takes each value from 24 down to 0 once.
    const remaining = responses.filter((r) => r.status === 200).map((r) => limits(r).remaining);
    expect(remaining.sort((a, b) => b - a)).toEqual(Array.from({ length: 25 }, (_, i) => 24 - i));
    for (const refused of responses.filter((r) => r.status === 429)) {
      expect(limits(refused).remaining).toBe(0);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    for (const handler of handlers) expect((await health(handler)).body).toMatchObject({ status: 'ok', rateLimitStore: 'redis' });
  });

  it('keeps one counter per client and window in Redis, with an expiry', async () => {
    await awayFromWindowEdge(WINDOW);
    const address = '198.51.100.11';
    await burst(handlers, 8, address);
    const windowStart = Date.now() - (Date.now() % (WINDOW * 1000));
    const client = createClient({ url: redis.url() });
    client.on('error', () => {});
    await client.connect();
    try {
      const key = `ratelimit:${windowStart}:default:${address}`;
      expect(await client.get(key)).toBe('8');
      const ttl = await client.pTTL(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(WINDOW * 1000 + 1000);
    } finally {
      client.destroy();
    }
  });

  it('does not count preflights in Redis either', async () => {
    await awayFromWindowEdge(WINDOW);
    const address = '198.51.100.12';
    expect(limits(await send(handlers[0]!, '/api/v1', { address })).remaining).toBe(24);
    const preflight = await send(handlers[1]!, '/api/v1', { address, method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(limits(preflight).remaining).toBe(24);
    expect(limits(await send(handlers[2]!, '/api/v1', { address })).remaining).toBe(23);
  });
});

describe('per-network policies in Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await closeHandlers();
    await redis?.dispose();
  });

  it('counts a listed network under its own policy across two instances, named in every field', async () => {
    await awayFromWindowEdge(WINDOW);
    const options = { rateLimit: { quota: 5, windowSeconds: WINDOW, redisUrl: redis.url(), policies: NETWORK_POLICIES } };
    const instances = [await makeHandler(options), await makeHandler(options)];
    let next = 0;
    await checkNetworkPolicies((address) => send(instances[next++ % 2]!, '/api/v1', { address }));
    // The counts are Redis's, one key per policy and client (or per policy, keyed by network).
    const client = createClient({ url: redis.url() });
    await client.connect();
    const keys = await client.keys('ratelimit:*');
    await client.destroy();
    expect(keys.some((key) => key.endsWith(':agents:160.79.104.9'))).toBe(true);
    expect(keys.some((key) => key.endsWith(':office:network'))).toBe(true);
  });
});

describe('Redis killed mid-run, fail open', () => {
  let redis: RedisServer;
  let handlers: Handler[];
  beforeAll(async () => {
    redis = await startRedis();
    handlers = await Promise.all(
      Array.from({ length: 2 }, () =>
        makeHandler({ rateLimit: { quota: 100_000, windowSeconds: WINDOW, redisUrl: redis.url(), fail: 'open' } }),
      ),
    );
    for (const handler of handlers) expect(await healthy(handler)).toBe(true);
  });
  afterAll(async () => {
    await closeHandlers();
    await redis?.dispose();
  });

  it('keeps answering through SIGKILL, reports degraded, and recovers once Redis is back', async () => {
    await awayFromWindowEdge(WINDOW, 30_000);
    const address = '198.51.100.20';
    const statuses: number[] = [];
    let stop = false;
    // Steady traffic while Redis dies under it.
    const traffic = (async () => {
      while (!stop) {
        const responses = await burst(handlers, 10, address);
        for (const response of responses) {
          statuses.push(response.status);
          limits(response);
        }
        await sleep(10);
      }
    })();
    await eventually(async () => statuses.length >= 50);
    await redis.kill();
    const atKill = statuses.length;
    await eventually(async () => statuses.length >= atKill + 100);
    stop = true;
    const settled = await Promise.race([traffic.then(() => 'answered'), sleep(10_000).then(() => 'hung')]);
    expect(settled, 'every request in flight was answered').toBe('answered');

    expect(statuses.length).toBeGreaterThanOrEqual(atKill + 100);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    // While Redis is down: health 200, degraded, with a reason that does not name the Redis host.
    for (const handler of handlers) {
      const { status, body } = await health(handler);
      expect(status).toBe(200);
      expect(body.status).toBe('degraded');
      expect(body.rateLimitStore).toBe('redis');
      expect(body.reason).toMatch(/rate-limit store unreachable/);
      expect(body.reason).not.toContain(String(redis.port));
      expect(body.reason).not.toContain('127.0.0.1');
      // Meanwhile each instance counts in its own memory, and its headers say what it enforces.
      const response = await send(handler, '/api/v1/product', { address: '198.51.100.21' });
      expect(response.status).toBe(200);
      expect(limits(response).remaining).toBe(99_999);
    }

    await redis.start();
    for (const [i, handler] of handlers.entries()) {
      expect(await healthy(handler), `instance ${i} back to ok after the restart`).toBe(true);
    }
    // Counting is shared again: the fresh Redis counts one client across both instances.
    const address2 = '198.51.100.22';
    expect(limits(await send(handlers[0]!, '/api/v1', { address: address2 })).remaining).toBe(99_999);
    expect(limits(await send(handlers[1]!, '/api/v1', { address: address2 })).remaining).toBe(99_998);
  }, 90_000);

  it('does not hang while Redis hangs (SIGSTOP), and recovers when it continues', async () => {
    await awayFromWindowEdge(WINDOW, 30_000);
    const address = '198.51.100.23';
    expect(limits(await send(handlers[0]!, '/api/v1', { address })).remaining).toBe(99_999);
    redis.pause();
    try {
      // These reach Redis but get no answer: each request gives up after the store's short timeout
      // and is counted in memory.
      const responses = await Promise.race([burst(handlers, 20, address), sleep(10_000).then(() => 'hung' as const)]);
      expect(responses, 'requests answered while Redis hangs').not.toBe('hung');
      expect(tally(responses as Response[])).toEqual({ 200: 20 });
      // Once Redis has timed out, requests are no longer sent to it (they would only count late).
      for (let i = 0; i < 10; i++) expect((await send(handlers[i % 2]!, '/api/v1', { address })).status).toBe(200);
      for (const handler of handlers) {
        const { status, body } = await health(handler);
        expect(status).toBe(200);
        expect(body.status).toBe('degraded');
        expect(body.reason).toMatch(/did not answer/);
      }
    } finally {
      redis.resume();
    }
    for (const handler of handlers) expect(await healthy(handler), 'back to ok once Redis continues').toBe(true);
    // Redis ran the 20 commands it received while stopped, and never saw the 10 that followed.
    expect(limits(await send(handlers[1]!, '/api/v1', { address })).remaining).toBe(99_999 - 21);
  }, 90_000);
});

describe('Redis down, fail closed', () => {
  let redis: RedisServer;
  let handler: Handler;
  beforeAll(async () => {
    redis = await startRedis();
    handler = await makeHandler({ rateLimit: { quota: 1000, windowSeconds: WINDOW, redisUrl: redis.url(), fail: 'closed' } });
    expect(await healthy(handler)).toBe(true);
  });
  afterAll(async () => {
    await closeHandlers();
    await redis?.dispose();
  });

  it('answers 503 to everything but health while Redis is down, and recovers by itself', async () => {
    const address = '198.51.100.30';
    expect((await send(handler, '/api/v1/product', { address })).status).toBe(200);
    await redis.kill();

    for (const [path, method] of [
      ['/api/v1/product', 'GET'],
      ['/api/v1', 'GET'],
      ['/api/v1', 'HEAD'],
      ['/openapi.json', 'GET'],
      ['/problems/rate_limited', 'GET'],
      ['/no/such/path', 'GET'],
      ['/mcp', 'POST'],
    ] as const) {
      const response = await send(handler, path, {
        address,
        method,
        headers: { 'Content-Type': 'application/json' },
        body: method === 'POST' ? '{}' : undefined,
      });
      expect(response.status, `${method} ${path}`).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      limits(response);
      if (method !== 'HEAD') expect(await response.json()).toMatchObject({ status: 503, code: 'service_unavailable' });
    }
    const { status, body } = await health(handler);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'degraded', rateLimitStore: 'redis' });
    expect(body.reason).toMatch(/failing closed/);

    await redis.restart();
    expect(await healthy(handler), 'back to ok after the restart').toBe(true);
    expect((await send(handler, '/api/v1/product', { address })).status).toBe(200);
  });
});

describe('Redis unreachable at start-up', () => {
  afterAll(closeHandlers);

  it('does not stop createHandler; fail open serves and health says degraded', async () => {
    const port = await freePort();
    const handler = await makeHandler({ rateLimit: { quota: 50, windowSeconds: WINDOW, redisUrl: `redis://127.0.0.1:${port}` } });
    const response = await send(handler, '/api/v1/product');
    expect(response.status).toBe(200);
    expect(limits(response).remaining).toBe(49);
    const { status, body } = await health(handler);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'degraded', rateLimitStore: 'redis' });
    expect(body.reason).not.toContain(String(port));
  });

  it('fail closed: 503 for the API, 200 degraded for health', async () => {
    const port = await freePort();
    const handler = await makeHandler({
      rateLimit: { quota: 50, windowSeconds: WINDOW, redisUrl: `redis://127.0.0.1:${port}`, fail: 'closed' },
    });
    expect((await send(handler, '/api/v1/product')).status).toBe(503);
    const { status, body } = await health(handler);
    expect(status).toBe(200);
    expect(body.status).toBe('degraded');
  });

  it('closes promptly even though it never connected', async () => {
    const port = await freePort();
    const handler = await makeHandler({ rateLimit: { redisUrl: `redis://127.0.0.1:${port}` } });
    await send(handler, '/api/v1');
    // A close that waits for a connection that never comes would hang here until the test times out.
    const closed = await Promise.race([handler.close().then(() => true), sleep(5_000).then(() => false)]);
    expect(closed).toBe(true);
  });

  it('connects by itself once Redis comes up', async () => {
    const redis = await startRedis();
    const port = redis.port;
    await redis.kill();
    try {
      const handler = await makeHandler({ rateLimit: { quota: 50, windowSeconds: WINDOW, redisUrl: redis.url() } });
      expect((await health(handler)).body.status).toBe('degraded');
      await redis.start();
      expect(redis.port).toBe(port);
      expect(await healthy(handler), 'connected after Redis came up').toBe(true);
    } finally {
      await redis.dispose();
    }
  });
});

/** The store's answer, or the error it failed with. */
function outcome<T>(call: () => T | Promise<T>): Promise<{ value: T } | { error: Error }> {
  return Promise.resolve()
    .then(call)
    .then(
      (value) => ({ value }),
      (error: Error) => ({ error }),
    );
}
const answers = async (call: () => unknown) => 'value' in (await outcome(call));

describe('createRedisStore', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.dispose();
  });

  it('counts atomically per key prefix, and re-loads its script after a Redis restart', async () => {
    const a = createRedisStore({ mode: 'standalone', url: redis.url() }, { keyPrefix: 'test:a' });
    const b = createRedisStore({ mode: 'standalone', url: redis.url() }, { keyPrefix: 'test:b' });
    try {
      expect(await eventually(async () => (await answers(() => a.current('k', 0))) && (await answers(() => b.current('k', 0))))).toBe(true);
      const counts = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).increment('k', 0, 60_000)));
      expect(counts.filter((_, i) => i % 2).sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      expect(await a.current('k', 0)).toBe(25);
      expect(await b.current('k', 0)).toBe(25);
      expect(await a.current('other', 0)).toBe(0);

      // A restarted Redis has lost the script (and, without persistence, the counts).
      await redis.restart();
      let first: { value: number } | { error: Error } = { error: new Error('no attempt') };
      expect(await eventually(async () => 'value' in (first = await outcome(() => a.increment('k', 0, 60_000))))).toBe(true);
      expect(first).toEqual({ value: 1 });
      expect(await a.increment('k', 0, 60_000)).toBe(2);
    } finally {
      await a.close();
      await b.close();
    }
  });

  /** A store on its own key prefix, warmed up, and how many script calls Redis has run since. */
  async function withScriptCalls(
    keyPrefix: string,
    use: (
      store: ReturnType<typeof createRedisStore>,
      sent: () => Promise<number>,
      admin: { pTTL(key: string): Promise<number> },
    ) => Promise<void>,
  ) {
    const store = createRedisStore({ mode: 'standalone', url: redis.url() }, { keyPrefix });
    const admin = createClient({ url: redis.url() });
    await admin.connect();
    try {
      expect(await eventually(() => answers(() => store.current('warm', 0)))).toBe(true);
      const calls = async () => Number(/cmdstat_evalsha:calls=(\d+)/.exec(await admin.info('commandstats'))?.[1] ?? 0);
      const before = await calls();
      await use(store, async () => (await calls()) - before, admin);
    } finally {
      await admin.quit();
      await store.close();
    }
  }

  it('sends concurrent increments as batches, each key counted exactly once per increment, with its expiry', () =>
    withScriptCalls('test:batch', async (store, sent, admin) => {
      const keys = Array.from({ length: 200 }, (_, i) => `k${i % 7}`);
      const counts = await Promise.all(keys.map((key) => store.increment(key, 0, 60_000)));
      for (let k = 0; k < 7; k++) {
        const seen = counts.filter((_, i) => keys[i] === `k${k}`).sort((x, y) => x - y);
        expect(seen, `k${k}`).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1));
      }
      const calls = await sent();
      expect(calls, 'the increments reached Redis as script calls').toBeGreaterThan(0);
      expect(calls, 'fewer script calls than increments').toBeLessThan(keys.length / 4);
      const ttl = await admin.pTTL('test:batch:0:k0');
      expect(ttl).toBeGreaterThan(59_000);
      expect(ttl).toBeLessThanOrEqual(61_000);
    }));

  it('sends increments of one pass over the sockets as one script call, though they arrive in separate turns of JavaScript', () =>
    withScriptCalls('test:pass', async (store, sent) => {
      // As requests read from several sockets in one poll: each handler runs, and its microtasks
      // settle, before the next socket's request is read.
      const counts: (number | Promise<number>)[] = [];
      for (let i = 0; i < 8; i++) {
        counts.push(store.increment('k', 0, 60_000));
        for (let turn = 0; turn < 5; turn++) await Promise.resolve();
      }
      expect(await Promise.all(counts)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(await sent(), 'one script call for the eight').toBe(1);
    }));

  it('rejects quickly, without naming the server, while Redis is down', async () => {
    const store = createRedisStore({ mode: 'standalone', url: redis.url() }, { keyPrefix: 'test:c' });
    try {
      expect(await eventually(() => answers(() => store.current('k', 0)))).toBe(true);
      await redis.kill();
      for (const attempt of [() => store.increment('k', 0, 60_000), () => store.current('k', 0)]) {
        const result = await outcome(attempt);
        expect(result, 'the store fails while Redis is down').toHaveProperty('error');
        const { error } = result as { error: Error };
        expect(error.message).toMatch(/Redis/);
        expect(error.message).not.toContain('127.0.0.1');
        expect(error.message).not.toContain(String(redis.port));
      }
    } finally {
      await store.close();
      if (!redis.running) await redis.start();
    }
  });
});

describe('createRedisStore: the first connection', () => {
  let redis: RedisServer;
  let link: SlowLink;
  beforeAll(async () => {
    redis = await startRedis();
    link = await slowLink(redis.port, 0);
  });
  afterAll(async () => {
    await link?.close();
    await redis?.dispose();
  });
  const store = (port: number, keyPrefix: string) =>
    createRedisStore({ mode: 'standalone', url: `redis://127.0.0.1:${port}` }, { keyPrefix });

  it('makes the first commands wait for a connection still being made, and counts them all in Redis', async () => {
    link.delayMs = 300;
    const slow = store(link.port, 'test:first');
    try {
      const started = performance.now();
      // Sent at once, before any connection exists: none fails, each sees its own count.
      const counts = await Promise.all([...Array.from({ length: 5 }, () => slow.increment('k', 0, 60_000)), slow.current('k', 0)]);
      expect(performance.now() - started, 'they waited for the connection').toBeGreaterThanOrEqual(250);
      expect(counts.slice(0, 5).sort()).toEqual([1, 2, 3, 4, 5]);
      expect(await slow.current('k', 0)).toBe(5);
    } finally {
      await slow.close();
    }
  });

  it('waits at most 1 s: a first connection slower than that fails, then the store connects by itself', async () => {
    link.delayMs = 2000;
    const slower = store(link.port, 'test:slower');
    try {
      const started = performance.now();
      const first = await outcome(() => slower.increment('k', 0, 60_000));
      const waited = performance.now() - started;
      expect(first).toHaveProperty('error');
      expect((first as { error: Error }).error.message).toBe('Redis is not connected');
      expect(waited).toBeGreaterThanOrEqual(900);
      expect(waited).toBeLessThan(2000);
      // Failing now, at once.
      const again = performance.now();
      expect(await outcome(() => slower.increment('k', 0, 60_000))).toHaveProperty('error');
      expect(performance.now() - again).toBeLessThan(200);
      // Connected once the link lets the connection through: counted in Redis from then on.
      expect(await eventually(() => answers(() => slower.increment('k', 0, 60_000)), 10_000)).toBe(true);
    } finally {
      await slower.close();
      link.delayMs = 0;
    }
  });

  it('does not wait for a Redis that refuses connections', async () => {
    const refused = store(await freePort(), 'test:refused');
    try {
      const started = performance.now();
      expect(await outcome(() => refused.increment('k', 0, 60_000))).toHaveProperty('error');
      expect(performance.now() - started).toBeLessThan(800);
    } finally {
      await refused.close();
    }
  });

  it('notices by itself, without requests, that Redis is back', async () => {
    const own = await startRedis();
    const watched = store(own.port, 'test:back');
    try {
      expect(await watched.increment('k', 0, 60_000)).toBe(1);
      await own.kill();
      expect(await outcome(() => watched.increment('k', 0, 60_000))).toHaveProperty('error');
      await own.start();
      // No request for a while: the store probes on its own, so the next request goes to Redis at once.
      await sleep(3000);
      expect(await outcome(() => watched.increment('k', 0, 60_000))).toEqual({ value: 1 });
    } finally {
      await watched.close();
      await own.dispose();
    }
  });
});
