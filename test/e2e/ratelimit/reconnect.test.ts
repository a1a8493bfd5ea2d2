/**
 * Connecting again and again (src/ratelimit/stores/reconnect.ts), against a real redis-server: the backoff
 * between attempts, a retry loop that keeps trying until Redis is there and stops when told, a latch
 * that reports how the first attempt went, and a bound on a wait that a hung Redis never ends.
 */
import { createClient, type RedisClientType } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { within } from '../../../src/util/deadline.ts';
import { backoff, firstConnectionLatch, retrying } from '../../../src/ratelimit/stores/reconnect.ts';
import { startRedis, type RedisServer } from '../../support/redis.ts';
import { sleep } from '../../support/net.ts';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.dispose());

/** Clients that connected, destroyed after each test. */
const connected: RedisClientType[] = [];
afterEach(async () => {
  if (!redis.running) await redis.start();
  for (const client of connected.splice(0)) client.destroy();
});

/** One real connection attempt to the shared server, each attempt's start time recorded. */
function attempts() {
  const startedAt: number[] = [];
  const connect = async () => {
    startedAt.push(performance.now());
    const client: RedisClientType = createClient({ url: redis.url(), socket: { connectTimeout: 500, reconnectStrategy: false } });
    client.on('error', () => {});
    await client.connect();
    connected.push(client);
  };
  return { startedAt, connect };
}

describe('backoff', () => {
  it('doubles from 50 ms and stays at 2 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map(backoff)).toEqual([50, 100, 200, 400, 800, 1600, 2000, 2000, 2000]);
  });
});

describe('firstConnectionLatch', () => {
  it('keeps the first outcome it is given', async () => {
    const failedFirst = firstConnectionLatch();
    failedFirst.settle(false);
    failedFirst.settle(true);
    expect(await failedFirst.promise).toBe(false);
    const connectedFirst = firstConnectionLatch();
    connectedFirst.settle(true);
    connectedFirst.settle(false);
    expect(await connectedFirst.promise).toBe(true);
  });
});

describe('retrying', () => {
  it('connects at the first attempt when Redis is there, and tries no more', async () => {
    const { startedAt, connect } = attempts();
    const first = firstConnectionLatch();
    const retry = retrying(connect, first);
    expect(await first.promise).toBe(true);
    await sleep(300);
    retry.stop();
    expect(startedAt).toHaveLength(1);
    expect(connected).toHaveLength(1);
  });

  it('reports the first failure at once, then keeps trying, backing off, until Redis is back', async () => {
    await redis.stop();
    const { startedAt, connect } = attempts();
    const first = firstConnectionLatch();
    const retry = retrying(connect, first);
    try {
      expect(await first.promise).toBe(false);
      await sleep(700);
      await redis.start();
      await expect.poll(() => connected.length, { timeout: 5000, interval: 50 }).toBe(1);
      // Attempts at 0, 50, 150, 350 and 750 ms (each after a failed one), then after 1550 ms at the latest.
      expect(startedAt.length).toBeGreaterThanOrEqual(4);
      const gaps = startedAt.slice(1).map((at, i) => at - startedAt[i]!);
      for (const [i, gap] of gaps.entries()) expect(gap, `gap ${i + 1}`).toBeGreaterThanOrEqual(backoff(i) - 5);
      // Connected: no further attempt.
      const made = startedAt.length;
      await sleep(500);
      expect(startedAt).toHaveLength(made);
    } finally {
      retry.stop();
    }
  });

  it('stops trying when told, even while waiting between attempts', async () => {
    await redis.stop();
    const { startedAt, connect } = attempts();
    const first = firstConnectionLatch();
    const retry = retrying(connect, first);
    expect(await first.promise).toBe(false);
    // Past the fourth attempt, the loop waits 400 ms and more between attempts.
    await expect.poll(() => startedAt.length, { timeout: 5000, interval: 10 }).toBeGreaterThanOrEqual(4);
    retry.stop();
    const made = startedAt.length;
    await redis.start();
    await sleep(1000);
    expect(startedAt).toHaveLength(made);
    expect(connected).toHaveLength(0);
  });
});

describe('within', () => {
  it('gives the answer that comes in time', async () => {
    const client: RedisClientType = createClient({ url: redis.url() });
    client.on('error', () => {});
    await client.connect();
    connected.push(client);
    expect(await within(1000, client.ping())).toBe('PONG');
  });

  it('gives up on an answer a hung Redis never sends, after the time given', async () => {
    const client: RedisClientType = createClient({ url: redis.url() });
    client.on('error', () => {});
    await client.connect();
    connected.push(client);
    redis.pause();
    try {
      const started = performance.now();
      await expect(within(300, client.ping())).rejects.toThrow('no answer within 300 ms');
      expect(performance.now() - started).toBeGreaterThanOrEqual(295);
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      redis.resume();
    }
  });

  it('passes a failure on as it is', async () => {
    const client: RedisClientType = createClient({ url: redis.url() });
    client.on('error', () => {});
    await client.connect();
    connected.push(client);
    await expect(within(1000, client.sendCommand(['NO-SUCH-COMMAND']))).rejects.toThrow(/unknown command/);
  });
});
