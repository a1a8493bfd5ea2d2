import { describe, expect, it } from 'vitest';
import { redisTargetOf } from '../../src/ratelimit/redis-target.ts';
import { makeHandler } from '../support/handler.ts';

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

  it('refuses two at once, as createHandler does', async () => {
    expect(() => redisTargetOf({ redisUrl: 'redis://a:6379', redisClusterUrls: ['redis://b:7000'] })).toThrow(/one of redisUrl, redisClusterUrls and redisSentinel/);
    await expect(
      makeHandler({ rateLimit: { redisUrl: 'redis://a:6379', redisSentinel: { urls: ['redis://b:26379'], masterName: 'm' } } }),
    ).rejects.toThrow(/not several/);
  });
});
