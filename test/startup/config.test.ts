import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/startup/config.ts';
import { environmentRefusal } from '../support/refusals.ts';

const refusal = environmentRefusal;

describe('loadConfig', () => {
  it('has the contract defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 8787,
      host: '127.0.0.1',
      publicBaseUrl: undefined,
      factsFile: undefined,
      rateLimit: { quota: 120, windowSeconds: 60, fail: 'open', failOpenShare: 1, ipv6PrefixBits: 56, redisUrl: undefined },
      trustProxyHops: 0,
      accessLog: false,
      mcp: { allowedOrigins: undefined, maxBodyBytes: 65536, rateLimitAnswer: 'http' },
      deprecation: undefined,
      docsPage: true,
      contentSignal: 'search=yes, ai-input=yes',
      telemetry: { otlp: undefined, deno: false, metricsPort: undefined, serverTiming: false },
    });
  });

  it('reads every variable', () => {
    const options = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      PUBLIC_BASE_URL: 'https://api.example.com/',
      FACTS_FILE: '/srv/facts.json',
      RATE_LIMIT_QUOTA: '5',
      RATE_LIMIT_WINDOW_SECONDS: '10',
      REDIS_URL: 'redis://cache.internal:6379',
      RATE_LIMIT_FAIL: 'closed',
      RATE_LIMIT_FAIL_OPEN_SHARE: '0.25',
      TRUST_PROXY_HOPS: '2',
      RATE_LIMIT_IPV6_PREFIX: '64',
      ACCESS_LOG: 'json',
      MCP_ALLOWED_ORIGINS: 'https://app.example.com, https://agent.example.org',
      MCP_MAX_BODY_BYTES: '1024',
      MCP_RATE_LIMIT_ANSWER: 'jsonrpc',
      DEPRECATION_DATE: '2027-01-01',
      SUNSET_DATE: '2027-06-30T12:00:00Z',
      DOCS_PAGE: 'off',
      CONTENT_SIGNAL: 'search=yes,AI-input=no , ai-train=no',
    });
    expect(options).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      publicBaseUrl: 'https://api.example.com',
      factsFile: '/srv/facts.json',
      rateLimit: {
        quota: 5,
        windowSeconds: 10,
        fail: 'closed',
        failOpenShare: 0.25,
        ipv6PrefixBits: 64,
        redisUrl: 'redis://cache.internal:6379',
      },
      trustProxyHops: 2,
      accessLog: true,
      mcp: { allowedOrigins: ['https://app.example.com', 'https://agent.example.org'], maxBodyBytes: 1024, rateLimitAnswer: 'jsonrpc' },
      deprecation: { successorPath: '/api/v2' },
      docsPage: false,
      contentSignal: 'search=yes, ai-input=no, ai-train=no',
    });
    expect(options.deprecation!.deprecatedAt.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(options.deprecation!.sunsetAt.toISOString()).toBe('2027-06-30T12:00:00.000Z');
  });

  it('writes MCP_ALLOWED_ORIGINS as an Origin header carries them, a trailing slash dropped', () => {
    expect(loadConfig({ MCP_ALLOWED_ORIGINS: 'https://app.example.com/, *' }).mcp?.allowedOrigins).toEqual([
      'https://app.example.com',
      '*',
    ]);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', REDIS_URL: '' }).port).toBe(8787);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PUBLIC_BASE_URL', 'api.example.com'],
    ['PUBLIC_BASE_URL', 'ftp://api.example.com'],
    ['PUBLIC_BASE_URL', 'https://api.example.com/?x=1'],
    ['RATE_LIMIT_QUOTA', '0'],
    ['RATE_LIMIT_WINDOW_SECONDS', '1.5'],
    ['REDIS_URL', 'localhost:6379'],
    ['REDIS_URL', 'http://localhost:6379'],
    ['RATE_LIMIT_FAIL', 'maybe'],
    ['RATE_LIMIT_FAIL_OPEN_SHARE', '0'],
    ['RATE_LIMIT_FAIL_OPEN_SHARE', '1.5'],
    ['RATE_LIMIT_FAIL_OPEN_SHARE', '50%'],
    ['RATE_LIMIT_FAIL_OPEN_SHARE', '1/2'],
    ['TRUST_PROXY_HOPS', 'all'],
    ['RATE_LIMIT_IPV6_PREFIX', '31'],
    ['RATE_LIMIT_IPV6_PREFIX', '129'],
    ['RATE_LIMIT_IPV6_PREFIX', '/56'],
    ['ACCESS_LOG', 'text'],
    ['MCP_ALLOWED_ORIGINS', 'https://app.example.com/path'],
    ['MCP_MAX_BODY_BYTES', '10'],
    ['MCP_RATE_LIMIT_ANSWER', 'json-rpc'],
    ['SUCCESSOR_PATH', 'api/v2'],
    ['DOCS_PAGE', 'yes'],
    ['CONTENT_SIGNAL', 'search'],
    ['CONTENT_SIGNAL', 'search=maybe'],
    ['CONTENT_SIGNAL', 'ai_train=no'],
    ['CONTENT_SIGNAL', 'search=yes, search=no'],
    ['CONTENT_SIGNAL', ','],
    ['CLIENT_IP_HEADER', 'Fly-Client-IP, X-Real-IP'],
    ['CLIENT_IP_HEADER', 'X-Forwarded-For'],
    ['CLIENT_IP_HEADER', 'forwarded'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    const message = refusal({ [name]: value });
    expect(message).toContain(`${name}=${JSON.stringify(value)}`);
  });

  it.each([
    ['2027-02-30', 'not a real calendar date'],
    ['2027-01-01T10:00', 'ISO 8601'],
    ['01/02/2027', 'ISO 8601'],
  ])('refuses DEPRECATION_DATE=%s', (value, reason) => {
    expect(refusal({ DEPRECATION_DATE: value, SUNSET_DATE: '2028-01-01' })).toContain(reason);
  });

  it('reads CLIENT_IP_HEADER, and refuses it beside TRUST_PROXY_HOPS naming both', () => {
    expect(loadConfig({ CLIENT_IP_HEADER: 'Fly-Client-IP' }).clientIpHeader).toBe('Fly-Client-IP');
    expect(loadConfig({ CLIENT_IP_HEADER: 'X-Real-IP', TRUST_PROXY_HOPS: '0' }).clientIpHeader).toBe('X-Real-IP');
    const message = refusal({ CLIENT_IP_HEADER: 'CF-Connecting-IP', TRUST_PROXY_HOPS: '1' });
    expect(message).toMatch(/CLIENT_IP_HEADER and TRUST_PROXY_HOPS are both set/);
  });

  it('refuses one deprecation date without the other, naming the missing one', () => {
    expect(refusal({ DEPRECATION_DATE: '2027-01-01' })).toContain('SUNSET_DATE is unset');
    expect(refusal({ SUNSET_DATE: '2027-06-01' })).toContain('DEPRECATION_DATE is unset');
  });

  it('refuses a sunset less than 90 days after the deprecation, saying the earliest allowed date', () => {
    const message = refusal({ DEPRECATION_DATE: '2027-01-01', SUNSET_DATE: '2027-03-31' });
    expect(message).toContain('89.0 days');
    expect(message).toContain('2027-04-01T00:00:00.000Z or later');
  });

  it('accepts a sunset exactly 90 days after the deprecation', () => {
    expect(loadConfig({ DEPRECATION_DATE: '2027-01-01', SUNSET_DATE: '2027-04-01' }).deprecation).toBeDefined();
  });
});

describe('loadConfig: the shared store and per-network policies', () => {
  it('reads Redis Cluster seed URLs, trimming spaces and empty items', () => {
    const { rateLimit } = loadConfig({ REDIS_CLUSTER_URLS: ' redis://10.0.0.1:7000, redis://10.0.0.2:7000,, ' });
    expect(rateLimit.redisClusterUrls).toEqual(['redis://10.0.0.1:7000', 'redis://10.0.0.2:7000']);
    expect(rateLimit.redisUrl).toBeUndefined();
    expect(rateLimit.redisSentinel).toBeUndefined();
  });

  it('reads the sentinels and the master group together', () => {
    const { rateLimit } = loadConfig({
      REDIS_SENTINEL_URLS: 'redis://10.0.0.1:26379,redis://10.0.0.2:26379',
      REDIS_SENTINEL_MASTER: 'mymaster',
    });
    expect(rateLimit.redisSentinel).toEqual({ urls: ['redis://10.0.0.1:26379', 'redis://10.0.0.2:26379'], masterName: 'mymaster' });
    expect(rateLimit.redisClusterUrls).toBeUndefined();
  });

  it.each([
    [{ REDIS_URL: 'redis://a:6379', REDIS_CLUSTER_URLS: 'redis://b:7000' }, ['REDIS_URL', 'REDIS_CLUSTER_URLS']],
    [
      { REDIS_URL: 'redis://a:6379', REDIS_SENTINEL_URLS: 'redis://b:26379', REDIS_SENTINEL_MASTER: 'm' },
      ['REDIS_URL', 'REDIS_SENTINEL_URLS'],
    ],
    [{ REDIS_CLUSTER_URLS: 'redis://b:7000', REDIS_SENTINEL_MASTER: 'm' }, ['REDIS_CLUSTER_URLS', 'REDIS_SENTINEL_URLS']],
    [{ REDIS_URL: 'redis://a:6379', RATE_LIMIT_DYNAMODB_TABLE: 'counters' }, ['REDIS_URL', 'RATE_LIMIT_DYNAMODB_TABLE']],
    [{ RATE_LIMIT_DYNAMODB_TABLE: 'counters', RATE_LIMIT_DENO_KV: 'on' }, ['RATE_LIMIT_DYNAMODB_TABLE', 'RATE_LIMIT_DENO_KV']],
  ])('refuses two shared stores at once, naming both: %j', (env, names) => {
    const message = refusal(env);
    expect(message).toContain(`${names[0]} and ${names[1]} are both set`);
  });

  it('reads the DynamoDB table and the Deno KV setting as the shared store', () => {
    expect(loadConfig({ RATE_LIMIT_DYNAMODB_TABLE: 'api-rate-limit.v1' }).rateLimit).toMatchObject({ dynamoDbTable: 'api-rate-limit.v1' });
    expect(loadConfig({ RATE_LIMIT_DENO_KV: 'on' }).rateLimit).toMatchObject({ denoKv: 'on' });
    expect(loadConfig({ RATE_LIMIT_DENO_KV: '/data/counters.kv' }).rateLimit).toMatchObject({ denoKv: '/data/counters.kv' });
  });

  it.each(['ab', 'has space', 'x'.repeat(256), 'arn:aws:dynamodb:us-east-1:123456789012:table/counters'])(
    'refuses RATE_LIMIT_DYNAMODB_TABLE=%s, naming the rule',
    (table) => {
      expect(refusal({ RATE_LIMIT_DYNAMODB_TABLE: table })).toContain(
        `RATE_LIMIT_DYNAMODB_TABLE=${JSON.stringify(table)}: must be a DynamoDB table name`,
      );
    },
  );

  it('reads Redis over HTTP from its own pair, then the platform names, which never compete with a named store', () => {
    const own = { RATE_LIMIT_REDIS_REST_URL: 'https://eu1-x.upstash.io', RATE_LIMIT_REDIS_REST_TOKEN: 'own' };
    const upstash = { UPSTASH_REDIS_REST_URL: 'https://us1-y.upstash.io', UPSTASH_REDIS_REST_TOKEN: 'up' };
    const kv = { KV_REST_API_URL: 'https://kv.example.com', KV_REST_API_TOKEN: 'kv' };
    expect(loadConfig({ ...own, ...upstash, ...kv }).rateLimit.redisRest).toEqual({
      url: 'https://eu1-x.upstash.io',
      token: 'own',
      names: { url: 'RATE_LIMIT_REDIS_REST_URL', token: 'RATE_LIMIT_REDIS_REST_TOKEN' },
    });
    expect(loadConfig({ ...upstash, ...kv }).rateLimit.redisRest).toMatchObject({
      token: 'up',
      names: { token: 'UPSTASH_REDIS_REST_TOKEN' },
    });
    expect(loadConfig(kv).rateLimit.redisRest).toMatchObject({ url: 'https://kv.example.com', names: { url: 'KV_REST_API_URL' } });
    // A marketplace database beside a store named on purpose: the named store, no refusal.
    expect(loadConfig({ ...kv, REDIS_URL: 'redis://10.0.0.1:6379' }).rateLimit).toMatchObject({
      redisUrl: 'redis://10.0.0.1:6379',
      redisRest: undefined,
    });
    expect(refusal({ ...own, REDIS_URL: 'redis://10.0.0.1:6379' })).toContain('REDIS_URL and RATE_LIMIT_REDIS_REST_URL are both set');
    expect(refusal({ ...own, RATE_LIMIT_DYNAMODB_TABLE: 'counters' })).toContain(
      'RATE_LIMIT_DYNAMODB_TABLE and RATE_LIMIT_REDIS_REST_URL are both set',
    );
  });

  it('refuses half of a Redis over HTTP pair and a URL that is not one, naming the variable', () => {
    expect(refusal({ RATE_LIMIT_REDIS_REST_URL: 'https://eu1-x.upstash.io' })).toContain('RATE_LIMIT_REDIS_REST_TOKEN is unset');
    expect(refusal({ KV_REST_API_TOKEN: 'kv' })).toContain('KV_REST_API_URL is unset: KV_REST_API_URL and KV_REST_API_TOKEN');
    expect(refusal({ UPSTASH_REDIS_REST_URL: 'redis://x:6379', UPSTASH_REDIS_REST_TOKEN: 't' })).toContain(
      'UPSTASH_REDIS_REST_URL="redis://x:6379": must start with https://',
    );
    expect(refusal({ RATE_LIMIT_REDIS_REST_URL: 'https://u:p@x.io', RATE_LIMIT_REDIS_REST_TOKEN: 't' })).toContain(
      'must not carry user information',
    );
    expect(refusal({ RATE_LIMIT_REDIS_REST_URL: 'https://x.io', RATE_LIMIT_REDIS_REST_TOKEN: 'a b' })).toContain(
      'RATE_LIMIT_REDIS_REST_TOKEN="a b": must be the REST token',
    );
  });

  it('refuses one Sentinel variable without the other, naming the missing one', () => {
    expect(refusal({ REDIS_SENTINEL_URLS: 'redis://10.0.0.1:26379' })).toContain('REDIS_SENTINEL_MASTER is unset');
    expect(refusal({ REDIS_SENTINEL_MASTER: 'mymaster' })).toContain('REDIS_SENTINEL_URLS is unset');
  });

  it.each([
    ['REDIS_CLUSTER_URLS', 'redis://10.0.0.1:7000,http://10.0.0.2:7000', 'http://10.0.0.2:7000'],
    ['REDIS_CLUSTER_URLS', 'redis://10.0.0.1:7000,10.0.0.2:7000', '10.0.0.2:7000'],
    ['REDIS_CLUSTER_URLS', 'redis://10.0.0.1:7000/2', 'redis://10.0.0.1:7000/2'],
    ['REDIS_SENTINEL_URLS', 'redis://10.0.0.1:26379,redis//10.0.0.2', 'redis//10.0.0.2'],
  ])('refuses %s=%s, naming the variable and the bad item', (name, value, bad) => {
    const message = refusal({ [name]: value, REDIS_SENTINEL_MASTER: name === 'REDIS_SENTINEL_URLS' ? 'mymaster' : '' });
    expect(message).toContain(`${name}=${JSON.stringify(value)}`);
    expect(message).toContain(`"${bad}" is not a redis:// or rediss:// URL`);
  });

  it('refuses seed URLs that mix redis:// and rediss://', () => {
    expect(refusal({ REDIS_CLUSTER_URLS: 'redis://a:7000,rediss://b:7000' })).toMatch(
      /REDIS_CLUSTER_URLS=.*mixes redis:\/\/ and rediss:\/\//,
    );
  });

  it('reads RATE_LIMIT_POLICIES into typed policies, key defaulting to address', () => {
    const { rateLimit } = loadConfig({
      RATE_LIMIT_POLICIES: JSON.stringify([
        { name: 'agents', networks: ['160.79.104.0/21', '2001:db8::/32'], quota: 1200, windowSeconds: 60 },
        { name: 'office', networks: ['198.51.100.0/24'], quota: 5000, windowSeconds: 3600, key: 'network' },
      ]),
    });
    expect(rateLimit.policies).toEqual([
      { name: 'agents', networks: ['160.79.104.0/21', '2001:db8::/32'], quota: 1200, windowSeconds: 60, key: 'address' },
      { name: 'office', networks: ['198.51.100.0/24'], quota: 5000, windowSeconds: 3600, key: 'network' },
    ]);
    expect(loadConfig({}).rateLimit.policies).toBeUndefined();
  });

  it('refuses a bad policy naming the entry and the member', () => {
    const message = refusal({
      RATE_LIMIT_POLICIES: JSON.stringify([
        { name: 'agents', networks: ['160.79.104.0/21'], quota: 1200, windowSeconds: 60 },
        { name: 'office', networks: ['10.0.0.0/33'], quota: 10, windowSeconds: 60 },
      ]),
    });
    expect(message).toContain('RATE_LIMIT_POLICIES[1].networks[0]: "10.0.0.0/33"');
  });

  it('reads a policy naming agents, each as its origin, and refuses an agent that is not an https origin', () => {
    const { rateLimit } = loadConfig({
      RATE_LIMIT_POLICIES: JSON.stringify([{ name: 'chatgpt', agents: ['https://chatgpt.com/'], quota: 600, windowSeconds: 60 }]),
    });
    expect(rateLimit.policies).toEqual([
      { name: 'chatgpt', agents: ['https://chatgpt.com'], quota: 600, windowSeconds: 60, key: 'address' },
    ]);
    const policy = { name: 'chatgpt', quota: 600, windowSeconds: 60 };
    expect(refusal({ RATE_LIMIT_POLICIES: JSON.stringify([{ ...policy, agents: ['http://chatgpt.com'] }]) })).toContain(
      'RATE_LIMIT_POLICIES[0].agents[0]: "http://chatgpt.com" must use https',
    );
    expect(
      refusal({ RATE_LIMIT_POLICIES: JSON.stringify([{ ...policy, agents: ['https://chatgpt.com'], networks: ['192.0.2.0/24'] }]) }),
    ).toContain('RATE_LIMIT_POLICIES[0].agents: names both networks and agents');
  });

  it('refuses RATE_LIMIT_POLICIES that is not JSON, naming the variable', () => {
    expect(refusal({ RATE_LIMIT_POLICIES: "[{name: 'agents'}]" })).toMatch(/RATE_LIMIT_POLICIES=.*is not valid JSON/);
  });

  describe('OpenTelemetry, METRICS_PORT and SERVER_TIMING', () => {
    it("starts OTLP export from OpenTelemetry's own variables, http/protobuf unless told", () => {
      expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).telemetry.otlp).toEqual({
        protocol: 'http/protobuf',
        traces: true,
        metrics: true,
        metricIntervalMs: 60_000,
        spanDelayMs: 5_000,
      });
      expect(
        loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).telemetry
          .otlp,
      ).toEqual({
        protocol: 'http/json',
        traces: true,
        metrics: false,
        metricIntervalMs: 60_000,
        spanDelayMs: 5_000,
      });
      expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_METRICS_EXPORTER: 'none' }).telemetry.otlp).toMatchObject({
        metrics: false,
      });
      expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).telemetry.otlp).toBeUndefined();
      expect(loadConfig({ OTEL_DENO: 'true' }).telemetry.deno).toBe(true);
    });

    it('reads METRICS_PORT and SERVER_TIMING', () => {
      expect(loadConfig({ METRICS_PORT: '9464', SERVER_TIMING: 'on' }).telemetry).toMatchObject({ metricsPort: 9464, serverTiming: true });
    });

    it('refuses gRPC, a bad endpoint and a bad port, naming the variable', () => {
      expect(refusal({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toContain(
        'OTEL_EXPORTER_OTLP_PROTOCOL="grpc": must be "http/protobuf" or "http/json"',
      );
      expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toContain('OTEL_EXPORTER_OTLP_ENDPOINT="collector:4318"');
      expect(refusal({ METRICS_PORT: '0' })).toContain('METRICS_PORT="0": must be a whole number from 1 to 65535');
      expect(refusal({ SERVER_TIMING: 'yes' })).toContain('SERVER_TIMING="yes": must be "on" or "off"');
    });
  });
});
