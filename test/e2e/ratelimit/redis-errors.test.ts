/**
 * Store failures as health reports them (src/ratelimit/stores/redis-errors.ts), from what a real
 * redis-server does to the counting script: the kind of failure (a refusal with its code, no answer
 * in time, too many commands waiting, no connection), never the Redis host, port, user or password
 * that the client's own error may carry.
 */
import { TimeoutError } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type RedisConnection } from '../../../src/ratelimit/stores/redis-connection.ts';
import { storeError } from '../../../src/ratelimit/stores/redis-errors.ts';
import { StoreError } from '../../../src/ratelimit/store.ts';
import type { RedisTarget } from '../../../src/ratelimit/stores/choice.ts';
import { freePort } from '../../support/net.ts';
import { redisCli, startRedis, type RedisServer } from '../../support/redis.ts';

const OPTIONS = { commandTimeoutMs: 250, maxPendingCommands: 100 };
const USER = 'limited-user';
const PASSWORD = 'hunter2-secret';

let redis: RedisServer;
let replica: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
  replica = await startRedis({ args: ['--replicaof', '127.0.0.1', String(redis.port)] });
  // A user that may connect and read, but not run scripts.
  await redisCli(redis.port, 'acl', 'setuser', USER, 'on', `>${PASSWORD}`, '~*', '+get', '+ping', '+client', '+info');
});
afterAll(async () => {
  await replica?.dispose();
  await redis?.dispose();
});

const open: RedisConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

async function connected(target: RedisTarget, options = OPTIONS): Promise<RedisConnection> {
  const connection = connectRedis(target, options);
  open.push(connection);
  await connection.firstConnection;
  return connection;
}

/** What the counting script's failure becomes: the client's own error and the store's. */
async function failureOf(connection: RedisConnection, key = 'errors:key'): Promise<{ cause: Error; error: StoreError }> {
  const cause = await connection.increment([{ key, ttlMs: 60_000 }]).then(
    () => expect.unreachable('the script call was answered'),
    (error: unknown) => error as Error,
  );
  return { cause, error: storeError(cause) };
}

/** Nothing that names the server or its credentials. */
function expectNothingNamed(message: string, port: number) {
  for (const secret of ['127.0.0.1', String(port), 'redis://', USER, PASSWORD]) expect(message, `names ${secret}`).not.toContain(secret);
}

describe('storeError', () => {
  describe('a command Redis refuses: its code, nothing else of the reply', () => {
    it('WRONGTYPE: the key holds something else', async () => {
      await redisCli(redis.port, 'lpush', 'errors:list', 'x');
      const { cause, error } = await failureOf(await connected({ mode: 'standalone', url: redis.url() }), 'errors:list');
      expect(cause.message).toMatch(/^WRONGTYPE .*script: /);
      expect(error.message).toBe('Redis refused the command (WRONGTYPE)');
    });

    it('OOM: Redis is out of memory', async () => {
      const connection = await connected({ mode: 'standalone', url: redis.url() });
      await redisCli(redis.port, 'config', 'set', 'maxmemory', '1');
      try {
        const { cause, error } = await failureOf(connection);
        expect(cause.message).toMatch(/^OOM /);
        expect(error.message).toBe('Redis refused the command (OOM)');
      } finally {
        await redisCli(redis.port, 'config', 'set', 'maxmemory', '0');
      }
    });

    it('READONLY: the server is a replica', async () => {
      const { cause, error } = await failureOf(await connected({ mode: 'standalone', url: replica.url() }));
      expect(cause.message).toMatch(/^READONLY /);
      expect(error.message).toBe('Redis refused the command (READONLY)');
    });

    it('NOPERM: the user may not run scripts, and is not named', async () => {
      const url = `redis://${USER}:${PASSWORD}@127.0.0.1:${redis.port}`;
      const { cause, error } = await failureOf(await connected({ mode: 'standalone', url }));
      expect(cause.message).toMatch(/^NOPERM /);
      expect(error.message).toBe('Redis refused the command (NOPERM)');
      expectNothingNamed(error.message, redis.port);
    });
  });

  describe('no connection: one wording, without the address or the credentials', () => {
    it('a port where nothing listens', async () => {
      const port = await freePort();
      const connection = await connected({ mode: 'standalone', url: `redis://${USER}:${PASSWORD}@127.0.0.1:${port}` });
      const { error } = await failureOf(connection);
      expect(error.message).toBe('Redis connection failed');
      expectNothingNamed(error.message, port);
    });

    it('a password Redis does not take', async () => {
      const connection = await connected({ mode: 'standalone', url: `redis://${USER}:wrong-${PASSWORD}@127.0.0.1:${redis.port}` });
      expect(await connection.firstConnection).toBe(false);
      const { error } = await failureOf(connection);
      expect(error.message).toBe('Redis connection failed');
      expectNothingNamed(error.message, redis.port);
    });

    it('a server killed under a live connection, and a closed connection', async () => {
      const lost = await startRedis();
      try {
        const connection = await connected({ mode: 'standalone', url: lost.url() });
        await lost.kill();
        expect((await failureOf(connection)).error.message).toBe('Redis connection failed');
        await connection.close();
        expect((await failureOf(connection)).error.message).toBe('Redis connection failed');
      } finally {
        await lost.dispose();
      }
    });
  });

  it('too many commands waiting for a hung Redis', async () => {
    const connection = await connected({ mode: 'standalone', url: redis.url() }, { ...OPTIONS, maxPendingCommands: 5 });
    redis.pause();
    try {
      const waiting = Array.from({ length: 5 }, (_, i) => connection.increment([{ key: `errors:waiting:${i}`, ttlMs: 60_000 }]));
      const { cause, error } = await failureOf(connection);
      expect(cause.message).toBe('The queue is full');
      expect(error.message).toBe('too many Redis commands waiting for an answer');
      redis.resume();
      await Promise.all(waiting);
    } finally {
      redis.resume();
    }
  });

  it("the client's command timeout", () => {
    // The client gives up on a command still waiting to be written after commandTimeoutMs. On
    // loopback a command is written at once, even to a hung server, so that error is made here from
    // the client's own class rather than provoked.
    expect(storeError(new TimeoutError()).message).toBe('Redis did not answer in time');
  });

  it('passes a store error through as it is, and words anything else as a failed connection', () => {
    const own = new StoreError('Redis did not answer within 250 ms');
    expect(storeError(own)).toBe(own);
    for (const thrown of [new Error('connect ECONNREFUSED 127.0.0.1:6379'), 'a string', undefined]) {
      const error = storeError(thrown);
      expect(error).toBeInstanceOf(StoreError);
      expect(error.name).toBe('StoreError');
      expect(error.message).toBe('Redis connection failed');
    }
  });
});
