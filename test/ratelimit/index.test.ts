import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, closeHandlers, makeHandler, send } from '../support/handler.ts';
import type { LogEntry } from '../../src/util/log.ts';
import { freshKey, serveDirectory, signedHeaders, type DirectoryServer } from '../support/web-bot-auth.ts';
import { createRateLimit, RATE_LIMIT_DEFAULTS } from '../../src/ratelimit/index.ts';
import type { CounterStore } from '../../src/ratelimit/store.ts';
import { checkNetworkPolicies, NETWORK_POLICIES, awayFromWindowEdge } from '../support/ratelimit.ts';

const request = (headers: Record<string, string> = {}) => new Request('https://api.example.com/api/v1', { headers });
const quiet = () => {};

describe('the rate limit entry point', () => {
  it('defaults to the contract: 120 per 60 s, fail open, IPv6 per /56, counted in memory', async () => {
    expect(RATE_LIMIT_DEFAULTS).toEqual({ quota: 120, windowSeconds: 60, fail: 'open', failOpenShare: 1, ipv6PrefixBits: 56 });
    const limit = await createRateLimit(undefined, 0, quiet);
    expect(limit.storeKind).toBe('memory');
    expect(limit.policyFields).toEqual({ 'RateLimit-Policy': '"default";q=120;w=60', 'X-RateLimit-Limit': '120' });
    expect(limit.keyOf(request(), { clientAddress: '2001:db8:1:2::3' })).toBe('2001:db8:1::/56');
  });

  it.each([0, 1.5, Number.NaN, '0.5'])('refuses rateLimit.failOpenShare=%s, naming the option and the rule', async (share) => {
    const refused = createRateLimit({ failOpenShare: share as number }, 0, quiet);
    await expect(refused).rejects.toThrow(`rateLimit.failOpenShare=${JSON.stringify(share)}: must be a fraction above 0 and at most 1`);
  });

  it('counts a client down to its quota, then refuses with Retry-After and the violated policy', async () => {
    const limit = await createRateLimit({ quota: 2, windowSeconds: 3600 }, 0, quiet);
    const verdicts = [];
    for (let i = 0; i < 3; i++) verdicts.push(await limit.check(request(), { clientAddress: '192.0.2.1' }, true));
    expect(verdicts.map((verdict) => verdict.headers['X-RateLimit-Remaining'])).toEqual(['1', '0', '0']);
    expect(verdicts.slice(0, 2).every((verdict) => verdict.refusal === undefined)).toBe(true);
    const retryAfter = Number(verdicts[2]!.headers['Retry-After']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(verdicts[2]!.refusal).toEqual({
      code: 'rate_limited',
      members: { 'violated-policies': ['default'], retryAfter, detail: expect.stringContaining(`try again in ${retryAfter} seconds`) },
      policy: 'default',
      retryAfter,
    });
    const uncounted = await limit.check(request(), { clientAddress: '192.0.2.1' }, false);
    expect(uncounted.refusal, 'what is not counted is never refused').toBeUndefined();
    expect(uncounted.headers['X-RateLimit-Remaining']).toBe('0');
    expect(
      (await limit.check(request(), { clientAddress: '192.0.2.2' }, true)).refusal,
      'another client has its own count',
    ).toBeUndefined();
  });

  it('believes X-Forwarded-For only behind trusted proxies', async () => {
    const trusting = await createRateLimit(undefined, 1, quiet);
    const forwarded = request({ 'x-forwarded-for': '198.51.100.7, 203.0.113.9' });
    expect(trusting.keyOf(forwarded, { clientAddress: '10.0.0.1' })).toBe('203.0.113.9');
    expect((await createRateLimit(undefined, 0, quiet)).keyOf(forwarded, { clientAddress: '10.0.0.1' })).toBe('10.0.0.1');
  });

  it('fails closed with a 503 retried in seconds while its store is down, and says why', async () => {
    const down: CounterStore = {
      kind: 'redis',
      increment: () => Promise.reject(new Error('connection refused')),
      current: () => Promise.reject(new Error('connection refused')),
      close: async () => {},
    };
    const limit = await createRateLimit({ fail: 'closed', store: down }, 0, quiet);
    const verdict = await limit.check(request(), { clientAddress: '192.0.2.1' }, true);
    expect(verdict.refusal).toEqual({ code: 'service_unavailable', policy: 'default' });
    expect(Number(verdict.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(Number(verdict.headers['Retry-After'])).toBeLessThanOrEqual(5);
    expect(limit.failure()).toContain('connection refused');
  });

  it("says the share's quota in RateLimit-Policy and X-RateLimit-Limit while it counts alone, failing open", async () => {
    await awayFromWindowEdge(3600);
    const down: CounterStore = {
      kind: 'redis',
      increment: () => Promise.reject(new Error('connection refused')),
      current: () => Promise.reject(new Error('connection refused')),
      close: async () => {},
    };
    const rateLimit = { quota: 10, windowSeconds: 3600, failOpenShare: 0.5, store: down, policies: NETWORK_POLICIES };
    const handler = await makeHandler({ rateLimit, logger: quiet });
    const fields = (response: Response) =>
      ['ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining'].map((name) => response.headers.get(name));
    // This instance admits floor(10 x 0.5) = 5 of the default policy, and says so; the agents' policy (3) gets 1.
    expect(fields(await send(handler, '/api/v1', { address: '198.51.100.1' }))).toEqual(['"default";q=5;w=3600', '5', '4']);
    expect(fields(await send(handler, '/api/v1', { address: '160.79.104.1' }))).toEqual(['"agents";q=1;w=3600', '1', '0']);
    const health = await send(handler, '/api/v1/health', { address: '198.51.100.1' });
    expect(fields(health), 'health, not counted, says the same').toEqual(['"default";q=5;w=3600', '5', '4']);
    await handler.close();
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

describe('a policy naming a verified agent (Web Bot Auth)', () => {
  let directory: DirectoryServer;
  beforeAll(async () => {
    directory = await serveDirectory();
  });
  afterAll(async () => {
    await closeHandlers();
    await directory.close();
  });

  const authority = new URL(BASE).host;
  const agentHandler = (logger?: (entry: LogEntry) => void) =>
    makeHandler({
      rateLimit: {
        quota: 5,
        windowSeconds: 3600,
        policies: [{ name: 'signer', agents: [directory.origin], quota: 50, windowSeconds: 3600 }],
      },
      ...(logger && { logger, accessLog: true }),
    });
  const seen = async (headers: Record<string, string> = {}) => {
    const response = await send(handler, '/api/v1', { address: '192.0.2.77', headers });
    await response.arrayBuffer();
    return [response.status, response.headers.get('ratelimit-policy'), response.headers.get('x-ratelimit-remaining')];
  };
  let handler: Awaited<ReturnType<typeof agentHandler>>;

  it('counts ten signed requests from one address under the policy, keyed by the agent, while ten unsigned meet the default quota', async () => {
    await awayFromWindowEdge(3600);
    handler = await agentHandler();
    const signed = [];
    for (let i = 0; i < 10; i++) signed.push(await seen(await signedHeaders({ authority, agent: directory.origin })));
    expect(signed).toEqual(Array.from({ length: 10 }, (_, i) => [200, '"signer";q=50;w=3600', String(49 - i)]));
    const unsigned = [];
    for (let i = 0; i < 10; i++) unsigned.push(await seen());
    expect(unsigned.map(([status]) => status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
    expect(unsigned.every(([, policy]) => policy === '"default";q=5;w=3600')).toBe(true);
    // The agent's count is its own, whatever address it comes from.
    const elsewhere = await send(handler, '/api/v1', {
      address: '198.51.100.200',
      headers: await signedHeaders({ authority, agent: directory.origin }),
    });
    expect(elsewhere.headers.get('x-ratelimit-remaining')).toBe('39');
    expect(directory.requests, 'the directory was fetched once and cached').toBe(1);
  });

  it('counts by address, never refusing for it, a signature by an unknown key, an expired one, or one over another authority', async () => {
    const unknown = await freshKey();
    const failing = [
      await signedHeaders({ authority, agent: directory.origin, key: unknown }),
      await signedHeaders({ authority, agent: directory.origin, created: Math.floor(Date.now() / 1000) - 3600 }),
      await signedHeaders({ authority: 'other.example.com', agent: directory.origin }),
      await signedHeaders({ authority, agent: 'https://unnamed.example' }),
    ];
    for (const headers of failing) expect(await seen(headers)).toEqual([429, '"default";q=5;w=3600', '0']);
    const fresh = await agentHandler();
    for (const headers of failing) {
      const response = await send(fresh, '/api/v1', { address: '192.0.2.78', headers });
      expect([response.status, response.headers.get('ratelimit-policy')]).toEqual([200, '"default";q=5;w=3600']);
    }
  });

  it('names the verified agent in the access log, its client key the agent', async () => {
    const lines: LogEntry[] = [];
    const logged = await agentHandler((entry) => void lines.push(entry));
    await send(logged, '/api/v1', { address: '192.0.2.79', headers: await signedHeaders({ authority, agent: directory.origin }) });
    await send(logged, '/api/v1', { address: '192.0.2.79' });
    const requests = lines.filter((line) => line.event === 'request');
    expect(requests[0]).toMatchObject({ client: `signer:${directory.origin}`, agentVerified: directory.origin });
    expect(requests[1]!.client).toBe('192.0.2.79');
    expect(requests[1]).not.toHaveProperty('agentVerified');
  });

  it('refuses at start an agents entry with a bad origin, naming it', async () => {
    await expect(
      createRateLimit({ policies: [{ name: 'x', agents: ['http://agent.example'], quota: 1, windowSeconds: 1 }] }, 0, quiet, BASE),
    ).rejects.toThrow('rateLimit.policies[0].agents[0]: "http://agent.example" must use https');
  });
});
