import { afterAll, describe, expect, it } from 'vitest';
import { Limiter } from '../../src/ratelimit/limiter.ts';
import { MemoryStore } from '../../src/ratelimit/stores/memory.ts';
import type { CounterStore } from '../../src/ratelimit/store.ts';
import { closeHandlers, makeHandler, send } from '../support/handler.ts';
import { awayFromWindowEdge, limits } from '../support/ratelimit.ts';
import { sleep } from '../support/net.ts';

// 20 s into a 60 s window that starts on a whole minute.
const WINDOW_START = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
const NOW = WINDOW_START + 20_000;

/** A store that fails while `down` is true, and otherwise counts in memory. */
class FlakyStore implements CounterStore {
  readonly kind = 'redis';
  down = false;
  readonly #inner = new MemoryStore();
  increment(key: string, windowStart: number) {
    if (this.down) return Promise.reject(new Error('store is down'));
    return Promise.resolve(this.#inner.increment(key, windowStart));
  }
  current(key: string, windowStart: number) {
    if (this.down) return Promise.reject(new Error('store is down'));
    return Promise.resolve(this.#inner.current(key, windowStart));
  }
  async close() {}
}

/** A store whose calls wait until the test settles them. */
class SlowStore implements CounterStore {
  readonly kind = 'dynamodb';
  calls: { resolve(count: number): void; reject(error: Error): void }[] = [];
  increment() {
    return new Promise<number>((resolve, reject) => this.calls.push({ resolve, reject }));
  }
  current() {
    return this.increment();
  }
  async close() {}
}

describe('Limiter', () => {
  it('with a quota of 5, remaining reads 4, 3, 2, 1, 0 and the sixth is over', async () => {
    const limiter = new Limiter({ quota: 5, windowSeconds: 60, fail: 'open', store: new MemoryStore() });
    const states = [];
    for (let i = 0; i < 6; i++) states.push(await limiter.hit('client', NOW + i));
    expect(states.map((s) => s.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(states.map((s) => s.exceeded)).toEqual([false, false, false, false, false, true]);
    expect(states.every((s) => s.quota === 5 && !s.unavailable)).toBe(true);
    expect(states[0]!.resetSeconds).toBe(40);
    expect(states[0]!.resetEpoch).toBe((WINDOW_START + 60_000) / 1000);
  });

  it('rounds the seconds to the reset up, never down', async () => {
    const limiter = new Limiter({ quota: 5, windowSeconds: 60, fail: 'open', store: new MemoryStore() });
    expect((await limiter.hit('a', WINDOW_START)).resetSeconds).toBe(60);
    expect((await limiter.hit('a', WINDOW_START + 59_001)).resetSeconds).toBe(1);
    expect((await limiter.hit('a', WINDOW_START + 59_999)).resetSeconds).toBe(1);
  });

  it('peek does not count', async () => {
    const limiter = new Limiter({ quota: 5, windowSeconds: 60, fail: 'open', store: new MemoryStore() });
    expect((await limiter.peek('client', NOW)).remaining).toBe(5);
    await limiter.hit('client', NOW);
    expect((await limiter.peek('client', NOW)).remaining).toBe(4);
    expect((await limiter.peek('client', NOW)).remaining).toBe(4);
    expect((await limiter.hit('client', NOW)).remaining).toBe(3);
  });

  it('starts over in the next window', async () => {
    const limiter = new Limiter({ quota: 2, windowSeconds: 60, fail: 'open', store: new MemoryStore() });
    for (let i = 0; i < 3; i++) await limiter.hit('client', NOW);
    expect((await limiter.hit('client', NOW)).exceeded).toBe(true);
    const next = await limiter.hit('client', WINDOW_START + 60_000);
    expect(next).toMatchObject({ remaining: 1, exceeded: false, resetSeconds: 60 });
  });

  it('fails open: counts in memory, reports the failure, and recovers once a probe write goes through', async () => {
    const store = new FlakyStore();
    const limiter = new Limiter({ quota: 5, windowSeconds: 60, fail: 'open', store, probeEveryMs: 0 });
    expect((await limiter.hit('client', NOW)).remaining).toBe(4);
    expect(limiter.failure()).toBeUndefined();

    store.down = true;
    const during = [];
    for (let i = 0; i < 6; i++) during.push(await limiter.hit('client', NOW));
    // The fallback counts from zero on this instance: the headers tell what this instance enforces.
    expect(during.map((s) => s.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(during.map((s) => s.unavailable)).toEqual([false, false, false, false, false, false]);
    expect(during[5]!.exceeded).toBe(true);
    expect((await limiter.peek('client', NOW)).remaining).toBe(0);
    expect(limiter.failure()).toMatch(/store is down/);

    store.down = false;
    // This request still counts in memory; the probe it starts finds the store back.
    expect((await limiter.hit('client', NOW)).remaining).toBe(0);
    await sleep(5);
    expect(limiter.failure()).toBeUndefined();
    expect((await limiter.hit('client', NOW)).remaining).toBe(3);
    limiter.close();
  });

  it('fails closed: marks the request unavailable while the store is down', async () => {
    const store = new FlakyStore();
    const limiter = new Limiter({ quota: 5, windowSeconds: 60, fail: 'closed', store, probeEveryMs: 0 });
    expect((await limiter.hit('client', NOW)).unavailable).toBe(false);
    store.down = true;
    expect((await limiter.hit('client', NOW)).unavailable).toBe(true);
    expect((await limiter.peek('client', NOW)).unavailable).toBe(true);
    expect(limiter.failure()).toMatch(/closed/);
    store.down = false;
    await limiter.hit('client', NOW);
    await sleep(5);
    expect((await limiter.hit('client', NOW)).unavailable).toBe(false);
    expect(limiter.failure()).toBeUndefined();
    limiter.close();
  });

  it('says the outage once, skips the store at once while down, and lets go of the requests waiting on it', async () => {
    const log: string[] = [];
    const store = new SlowStore();
    const limiter = new Limiter({ quota: 100, windowSeconds: 60, fail: 'open', store, logger: (entry) => log.push(entry.event) });
    // Three requests wait on the store; the first one's failure lets the other two go at once.
    const waiting = [limiter.hit('a', NOW), limiter.hit('b', NOW), limiter.hit('c', NOW)];
    store.calls[0]!.reject(new Error('connection reset'));
    const started = performance.now();
    expect((await Promise.all(waiting)).map((state) => state.remaining)).toEqual([99, 99, 99]);
    // While down, the store is not asked (no wait), and a read's success could not end the outage.
    const asked = store.calls.length;
    for (let i = 0; i < 20; i++) await limiter.hit('a', NOW);
    expect(performance.now() - started).toBeLessThan(50);
    expect(store.calls.length - asked).toBeLessThanOrEqual(1);
    store.calls.at(-1)?.reject(new Error('still down'));
    expect(log).toEqual(['rate_limit_store_lost']);
    expect(limiter.failure()).toMatch(/connection reset/);
    limiter.close();
  });

  it("stays down while reads answer and writes fail (a KV file behind another process's write lock)", async () => {
    const store = new FlakyStore();
    const log: string[] = [];
    const limiter = new Limiter({
      quota: 5,
      windowSeconds: 60,
      fail: 'open',
      store,
      probeEveryMs: 0,
      logger: (entry) => log.push(entry.event),
    });
    store.increment = () => Promise.reject(new Error('database is locked'));
    await limiter.hit('client', NOW);
    for (let i = 0; i < 10; i++) {
      await limiter.peek('client', NOW);
      await limiter.hit('client', NOW);
      await sleep(1);
    }
    expect(limiter.failure()).toMatch(/database is locked/);
    expect(log).toEqual(['rate_limit_store_lost']);
    limiter.close();
  });

  it('fails open with each instance admitting its share of the quota while the store is down', async () => {
    const store = new FlakyStore();
    store.down = true;
    const limiter = new Limiter({ quota: 10, windowSeconds: 60, fail: 'open', failOpenShare: 0.5, store });
    const states = [];
    for (let i = 0; i < 7; i++) states.push(await limiter.hit('client', NOW));
    expect(states.map((state) => state.exceeded)).toEqual([false, false, false, false, false, true, true]);
    expect(states.map((state) => state.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
    expect(states[0]!.quota).toBe(5);
    limiter.close();
  });
});

describe('the handler counts per client', () => {
  afterAll(closeHandlers);
  const quota = 3;
  const rateLimit = { quota, windowSeconds: 3600 };
  const remaining = async (response: Promise<Response>) => limits(await response).remaining;

  it('gives different addresses separate quotas', async () => {
    await awayFromWindowEdge(3600);
    const handler = await makeHandler({ rateLimit });
    for (let i = 0; i < quota; i++) await send(handler, '/api/v1', { address: '198.51.100.1' });
    const over = await send(handler, '/api/v1', { address: '198.51.100.1' });
    expect(over.status).toBe(429);
    const other = await send(handler, '/api/v1', { address: '198.51.100.2' });
    expect(other.status).toBe(200);
    expect(limits(other).remaining).toBe(quota - 1);
    expect(await remaining(send(handler, '/api/v1', { address: '2001:db8::1' }))).toBe(quota - 1);
  });

  it('ignores a spoofed X-Forwarded-For when no proxy is trusted', async () => {
    await awayFromWindowEdge(3600);
    const handler = await makeHandler({ rateLimit, trustProxyHops: 0 });
    const seen = [];
    for (let i = 0; i < quota + 1; i++) {
      const response = await send(handler, '/api/v1', { address: '198.51.100.9', headers: { 'X-Forwarded-For': `192.0.2.${i + 1}` } });
      seen.push(response.status);
    }
    expect(seen).toEqual([200, 200, 200, 429]);
    // And the same forged header from another connection is another client.
    const other = await send(handler, '/api/v1', { address: '198.51.100.10', headers: { 'X-Forwarded-For': '192.0.2.1' } });
    expect(limits(other).remaining).toBe(quota - 1);
  });

  it('with one trusted proxy, keys on the last X-Forwarded-For entry', async () => {
    await awayFromWindowEdge(3600);
    const handler = await makeHandler({ rateLimit, trustProxyHops: 1 });
    const via = (proxy: string, forwardedFor: string) =>
      send(handler, '/api/v1', { address: proxy, headers: { 'X-Forwarded-For': forwardedFor } });
    // The same client behind two proxies (load-balancer nodes), with forged entries on the left.
    expect(await remaining(via('10.0.0.1', '192.0.2.7'))).toBe(2);
    expect(await remaining(via('10.0.0.2', '203.0.113.99, 192.0.2.7'))).toBe(1);
    expect(await remaining(via('10.0.0.1', 'forged, 192.0.2.7'))).toBe(0);
    expect((await via('10.0.0.2', '192.0.2.7')).status).toBe(429);
    // Another client through the same proxy has its own quota, and so has the proxy itself.
    expect(await remaining(via('10.0.0.1', '192.0.2.7, 192.0.2.8'))).toBe(2);
    expect(await remaining(send(handler, '/api/v1', { address: '10.0.0.1' }))).toBe(2);
  });

  it('without an address, all requests share the fallback key', async () => {
    await awayFromWindowEdge(3600);
    const handler = await makeHandler({ rateLimit });
    const statuses = [];
    for (let i = 0; i < quota + 1; i++) {
      const response = await send(handler, '/api/v1', { address: null, headers: { 'X-Forwarded-For': `192.0.2.${i + 1}` } });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // A client with an address is not caught in that shared bucket.
    expect((await send(handler, '/api/v1', { address: '198.51.100.1' })).status).toBe(200);
  });
});
