import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/ratelimit/stores/memory.ts';
import { sharedStoreOf } from '../../../src/ratelimit/stores/choice.ts';
import { loadConfig, STORE_VARIABLES } from '../../../src/startup/config.ts';
import { StartupError } from '../../../src/util/startup-error.ts';
import { makeHandler } from '../../support/handler.ts';

describe('sharedStoreOf', () => {
  it('names the one shared store an embedding app gives, and the option that gave it, or none', () => {
    expect(sharedStoreOf({})).toBeUndefined();
    expect(sharedStoreOf({ redisUrl: 'redis://10.0.0.1:6379' })).toEqual({
      kind: 'redis',
      target: { mode: 'standalone', url: 'redis://10.0.0.1:6379' },
      setting: 'rateLimit.redisUrl',
    });
    expect(sharedStoreOf({ redisClusterUrls: ['redis://10.0.0.1:7000'] })).toEqual({
      kind: 'redis',
      target: { mode: 'cluster', urls: ['redis://10.0.0.1:7000'] },
      setting: 'rateLimit.redisClusterUrls',
    });
    expect(sharedStoreOf({ redisSentinel: { urls: ['redis://10.0.0.1:26379'], masterName: 'mymaster' } })).toEqual({
      kind: 'redis',
      target: { mode: 'sentinel', urls: ['redis://10.0.0.1:26379'], masterName: 'mymaster' },
      setting: 'rateLimit.redisSentinel.urls',
    });
    expect(sharedStoreOf({ dynamoDbTable: 'counters' })).toEqual({
      kind: 'dynamodb',
      table: 'counters',
      setting: 'rateLimit.dynamoDbTable',
    });
    expect(sharedStoreOf({ denoKv: 'on' })).toEqual({ kind: 'deno-kv', path: 'on', setting: 'rateLimit.denoKv' });
    expect(sharedStoreOf({ redisUrl: '', redisClusterUrls: [] })).toBeUndefined();
  });

  it("refuses an app's own Redis-over-HTTP URL or token by the environment's rules, naming the option and never the token", async () => {
    expect(() => sharedStoreOf({ redisRest: { url: 'nope', token: 'secret-token' } })).toThrow(
      /rateLimit\.redisRest\.url="nope": must be the REST URL of the database/,
    );
    const refusal = await makeHandler({ rateLimit: { redisRest: { url: 'https://eu1.example.io', token: 'has space' } } }).catch(
      (error) => error,
    );
    expect(refusal).toBeInstanceOf(StartupError);
    expect(String(refusal.message)).toMatch(/rateLimit\.redisRest\.token=.*must be the REST token/);
    expect(String(refusal.message)).not.toContain('has space');
  });

  it('refuses two at once, as createHandler does, naming the options', async () => {
    expect(() => sharedStoreOf({ redisUrl: 'redis://a:6379', redisClusterUrls: ['redis://b:7000'] })).toThrow(
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
    expect(sharedStoreOf({ store: new MemoryStore() })).toBeUndefined();
  });

  it('counts the DynamoDB table and Deno KV as choices: with another store, createHandler refuses both', async () => {
    await expect(makeHandler({ rateLimit: { dynamoDbTable: 'counters', store: new MemoryStore() } })).rejects.toThrow(
      /rateLimit\.dynamoDbTable and rateLimit\.store are both set: choose one shared store/,
    );
    await expect(makeHandler({ rateLimit: { redisUrl: 'redis://a:6379', denoKv: 'on' } })).rejects.toThrow(
      /rateLimit\.redisUrl and rateLimit\.denoKv are both set: .*rateLimit\.dynamoDbTable for a DynamoDB table, rateLimit\.denoKv for Deno KV/,
    );
  });

  it('names the chosen store and refuses two the way the environment calls them', () => {
    expect(sharedStoreOf({ dynamoDbTable: 'counters' }, STORE_VARIABLES)?.setting).toBe('RATE_LIMIT_DYNAMODB_TABLE');
    expect(() => sharedStoreOf({ redisUrl: 'redis://a:6379', denoKv: 'on' }, STORE_VARIABLES)).toThrow(
      /^Invalid configuration:\n {2}REDIS_URL and RATE_LIMIT_DENO_KV are both set: choose one shared store \(REDIS_URL for one server, /,
    );
    expect(() => loadConfig({ REDIS_URL: 'redis://a:6379', RATE_LIMIT_DENO_KV: 'on' })).toThrow(
      /REDIS_URL and RATE_LIMIT_DENO_KV are both set/,
    );
  });

  it("refuses half of Sentinel's pair, naming the missing half as the caller calls it", () => {
    expect(() => sharedStoreOf({ redisSentinel: { urls: ['redis://b:26379'] } })).toThrow(/rateLimit\.redisSentinel\.masterName is unset/);
    const names = {
      redisUrl: 'R',
      redisClusterUrls: 'C',
      sentinelUrls: 'REDIS_SENTINEL_URLS',
      sentinelMaster: 'REDIS_SENTINEL_MASTER',
      dynamoDbTable: 'D',
      denoKv: 'K',
    };
    const half = () => sharedStoreOf({ redisSentinel: { masterName: 'm' } }, names);
    expect(half).toThrow(/REDIS_SENTINEL_URLS is unset: REDIS_SENTINEL_URLS \(the sentinels\) and REDIS_SENTINEL_MASTER/);
  });
});

describe('the store settings of createHandler, by the rules of the environment', () => {
  /** The words after `NAME="value": ` in a refusal. */
  const wordsOf = (message: string, name: string) =>
    new RegExp(`\\n  ${name.replace(/\./g, '\\.')}=[^\\n]*?: ([^\\n]*)`).exec(message)?.[1];
  const refusal = async (make: () => unknown) => {
    try {
      await make();
    } catch (error) {
      expect(error).toBeInstanceOf(StartupError);
      return (error as Error).message;
    }
    throw new Error('not refused');
  };

  it.each<[variable: string, text: string, option: string, value: unknown]>([
    ['RATE_LIMIT_FAIL', 'close', 'rateLimit.fail', 'close'],
    ['REDIS_URL', 'http://10.0.0.1:6379', 'rateLimit.redisUrl', 'http://10.0.0.1:6379'],
    ['REDIS_URL', 'not a url', 'rateLimit.redisUrl', 'not a url'],
    ['REDIS_CLUSTER_URLS', 'redis://10.0.0.1:7000/2', 'rateLimit.redisClusterUrls', ['redis://10.0.0.1:7000/2']],
    [
      'REDIS_CLUSTER_URLS',
      'redis://10.0.0.1:7000,rediss://10.0.0.2:7000',
      'rateLimit.redisClusterUrls',
      ['redis://10.0.0.1:7000', 'rediss://10.0.0.2:7000'],
    ],
    ['RATE_LIMIT_DYNAMODB_TABLE', 'a', 'rateLimit.dynamoDbTable', 'a'],
    ['RATE_LIMIT_DYNAMODB_TABLE', 'counters/prod', 'rateLimit.dynamoDbTable', 'counters/prod'],
  ])('refuses %s=%j and createHandler its option in the same words', async (variable, text, option, value) => {
    const fromEnv = await refusal(() => loadConfig({ [variable]: text }));
    const [group, key] = option.split('.') as [string, string];
    const fromOption = await refusal(() => makeHandler({ [group]: { [key]: value } }));
    expect(fromOption).toMatch(/^Invalid configuration:\n/);
    expect(wordsOf(fromOption, option), fromOption).toBeDefined();
    expect(wordsOf(fromOption, option)).toBe(wordsOf(fromEnv, variable));
  });

  it('never echoes the password of a refused node URL', async () => {
    const message = await refusal(() => makeHandler({ rateLimit: { redisClusterUrls: ['redis://:secret@10.0.0.1:7000/3'] } }));
    expect(message).toContain('rateLimit.redisClusterUrls=["redis://***@10.0.0.1:7000/3"]');
    expect(message).not.toContain('secret');
  });
});
