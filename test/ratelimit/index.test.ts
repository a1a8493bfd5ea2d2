import { describe, expect, it } from 'vitest';
import { makeHandler, send } from '../support/handler.ts';
import { createRateLimit, RATE_LIMIT_DEFAULTS } from '../../src/ratelimit/index.ts';
import type { CounterStore } from '../../src/ratelimit/store.ts';
import { checkNetworkPolicies, NETWORK_POLICIES, awayFromWindowEdge } from '../support/ratelimit.ts';

const request = (headers: Record<string, string> = {}) => new Request('https://api.example.com/api/v1', { headers });
const quiet = () => {};

describe('the rate limit entry point', () => {
  it('defaults to the contract: 120 per 60 s, fail open, IPv6 per /56, counted in memory', async () => {
    expect(RATE_LIMIT_DEFAULTS).toEqual({ quota: 120, windowSeconds: 60, fail: 'open', ipv6PrefixBits: 56 });
    const limit = await createRateLimit(undefined, 0, quiet);
    expect(limit.storeKind).toBe('memory');
    expect(limit.policyFields).toEqual({ 'RateLimit-Policy': '"default";q=120;w=60', 'X-RateLimit-Limit': '120' });
    expect(limit.keyOf(request(), '2001:db8:1:2::3')).toBe('2001:db8:1::/56');
  });

  it('counts a client down to its quota, then refuses with Retry-After and the violated policy', async () => {
    const limit = await createRateLimit({ quota: 2, windowSeconds: 3600 }, 0, quiet);
    const verdicts = [];
    for (let i = 0; i < 3; i++) verdicts.push(await limit.check(request(), '192.0.2.1', true));
    expect(verdicts.map((verdict) => verdict.headers['X-RateLimit-Remaining'])).toEqual(['1', '0', '0']);
    expect(verdicts.slice(0, 2).every((verdict) => verdict.refusal === undefined)).toBe(true);
    expect(verdicts[2]!.refusal).toEqual({ code: 'rate_limited', members: { 'violated-policies': ['default'] }, policy: 'default' });
    expect(Number(verdicts[2]!.headers['Retry-After'])).toBeGreaterThan(0);
    const uncounted = await limit.check(request(), '192.0.2.1', false);
    expect(uncounted.refusal, 'what is not counted is never refused').toBeUndefined();
    expect(uncounted.headers['X-RateLimit-Remaining']).toBe('0');
    expect((await limit.check(request(), '192.0.2.2', true)).refusal, 'another client has its own count').toBeUndefined();
  });

  it('believes X-Forwarded-For only behind trusted proxies', async () => {
    const trusting = await createRateLimit(undefined, 1, quiet);
    const forwarded = request({ 'x-forwarded-for': '198.51.100.7, 203.0.113.9' });
    expect(trusting.keyOf(forwarded, '10.0.0.1')).toBe('203.0.113.9');
    expect((await createRateLimit(undefined, 0, quiet)).keyOf(forwarded, '10.0.0.1')).toBe('10.0.0.1');
  });

  it('fails closed with a 503 retried in seconds while its store is down, and says why', async () => {
    const down: CounterStore = {
      kind: 'redis',
      increment: () => Promise.reject(new Error('connection refused')),
      current: () => Promise.reject(new Error('connection refused')),
      close: async () => {},
    };
    const limit = await createRateLimit({ fail: 'closed', store: down }, 0, quiet);
    const verdict = await limit.check(request(), '192.0.2.1', true);
    expect(verdict.refusal).toEqual({ code: 'service_unavailable', policy: 'default' });
    expect(Number(verdict.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(Number(verdict.headers['Retry-After'])).toBeLessThanOrEqual(5);
    expect(limit.failure()).toContain('connection refused');
  });

  it('counts a client of a listed network under its policy alone, named in every field, in memory', async () => {
    await awayFromWindowEdge(3600);
    const handler = await makeHandler({ rateLimit: { quota: 5, windowSeconds: 3600, policies: NETWORK_POLICIES } });
    await checkNetworkPolicies((address) => send(handler, '/api/v1', { address }));
    const outsider = await send(handler, '/api/v1', { address: '198.51.100.1' });
    expect(outsider.headers.get('ratelimit-policy')).toBe('"default";q=5;w=3600');
    expect(outsider.headers.get('x-ratelimit-remaining'), 'the first request of this client: the others counted apart').toBe('3');
    await handler.close();
  });
});

describe('policies given by an embedding app', () => {
  it('are checked as RATE_LIMIT_POLICIES is, naming the bad entry', async () => {
    const bad = [NETWORK_POLICIES[0]!, { name: 'lab', networks: ['10.0.0.0/33'], quota: 5, windowSeconds: 60 }];
    await expect(createRateLimit({ policies: bad }, 0, quiet)).rejects.toThrow(/rateLimit\.policies\[1\]\.networks\[0\]: .*prefix length/);
    await expect(createRateLimit({ policies: [{ ...NETWORK_POLICIES[0]!, name: 'default' }] }, 0, quiet)).rejects.toThrow(
      /rateLimit\.policies\[0\]\.name/,
    );
  });
});
