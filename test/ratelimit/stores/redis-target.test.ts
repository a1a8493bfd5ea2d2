import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/ratelimit/stores/memory.ts';
import { redisTargetOf } from '../../../src/ratelimit/stores/redis-target.ts';
import { StartupError } from '../../../src/util/startup-error.ts';
import { makeHandler } from '../../support/handler.ts';

describe('redisTargetOf', () => {
  it('names the one shared store an embedding app gives, or none', () => {
    expect(redisTargetOf({})).toBeUndefined();
    expect(redisTargetOf({ redisUrl: 'redis://10.0.0.1:6379' })).toEqual({ mode: 'standalone', url: 'redis://10.0.0.1:6379' });
    expect(redisTargetOf({ redisClusterUrls: ['redis://10.0.0.1:7000'] })).toEqual({ mode: 'cluster', urls: ['redis://10.0.0.1:7000'] });
    expect(redisTargetOf({ redisSentinel: { urls: ['redis://10.0.0.1:26379'], masterName: 'mymaster' } })).toEqual({
      mode: 'sentinel',
      urls: ['redis://10.0.0.1:26379'],
      masterName: 'mymaster',
    });
    expect(redisTargetOf({ redisUrl: '', redisClusterUrls: [] })).toBeUndefined();
  });

  it('refuses two at once, as createHandler does, naming the options', async () => {
    expect(() => redisTargetOf({ redisUrl: 'redis://a:6379', redisClusterUrls: ['redis://b:7000'] })).toThrow(
      /rateLimit\.redisUrl and rateLimit\.redisClusterUrls are both set: choose one shared store/,
    );
    await expect(
      makeHandler({ rateLimit: { redisUrl: 'redis://a:6379', redisSentinel: { urls: ['redis://b:26379'], masterName: 'm' } } }),
    ).rejects.toThrow(/rateLimit\.redisUrl and rateLimit\.redisSentinel\.urls are both set/);
  });

  it("counts a store of the app's own as a choice: with a Redis one too, createHandler refuses both", async () => {
    const refused = makeHandler({ rateLimit: { redisClusterUrls: ['redis://b:7000'], store: new MemoryStore() } });
    await expect(refused).rejects.toBeInstanceOf(StartupError);
    await expect(refused).rejects.toThrow(/rateLimit\.redisClusterUrls and rateLimit\.store are both set: choose one shared store/);
    await expect(refused).rejects.toThrow(/rateLimit\.store for a store of your own\)\.$/);
    expect(redisTargetOf({ store: new MemoryStore() })).toBeUndefined();
  });

  it('counts the DynamoDB table and Deno KV as choices: with another store, createHandler refuses both', async () => {
    await expect(makeHandler({ rateLimit: { dynamoDbTable: 'counters', store: new MemoryStore() } })).rejects.toThrow(
      /rateLimit\.dynamoDbTable and rateLimit\.store are both set: choose one shared store/,
    );
    await expect(makeHandler({ rateLimit: { redisUrl: 'redis://a:6379', denoKv: 'on' } })).rejects.toThrow(
      /rateLimit\.redisUrl and rateLimit\.denoKv are both set: .*rateLimit\.dynamoDbTable for a DynamoDB table, rateLimit\.denoKv for Deno KV/,
    );
    expect(redisTargetOf({ dynamoDbTable: 'counters' })).toBeUndefined();
  });

  it("refuses half of Sentinel's pair, naming the missing half as the caller calls it", () => {
    expect(() => redisTargetOf({ redisSentinel: { urls: ['redis://b:26379'] } })).toThrow(/rateLimit\.redisSentinel\.masterName is unset/);
    const names = {
      redisUrl: 'R',
      redisClusterUrls: 'C',
      sentinelUrls: 'REDIS_SENTINEL_URLS',
      sentinelMaster: 'REDIS_SENTINEL_MASTER',
      dynamoDbTable: 'D',
      denoKv: 'K',
    };
    const half = () => redisTargetOf({ redisSentinel: { masterName: 'm' } }, names);
    expect(half).toThrow(/REDIS_SENTINEL_URLS is unset: REDIS_SENTINEL_URLS \(the sentinels\) and REDIS_SENTINEL_MASTER/);
  });
});
