import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { StartupError } from '../src/startup-error.ts';

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(StartupError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has the contract defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 8787,
      host: '127.0.0.1',
      publicBaseUrl: undefined,
      factsFile: undefined,
      rateLimit: { quota: 120, windowSeconds: 60, fail: 'open', ipv6PrefixBits: 56, redisUrl: undefined },
      trustProxyHops: 0,
      accessLog: false,
      mcp: { allowedOrigins: undefined, maxBodyBytes: 65536 },
      deprecation: undefined,
      docsPage: true,
      contentSignal: 'search=yes, ai-input=yes',
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
      TRUST_PROXY_HOPS: '2',
      RATE_LIMIT_IPV6_PREFIX: '64',
      ACCESS_LOG: 'json',
      MCP_ALLOWED_ORIGINS: 'https://app.example.com, https://agent.example.org',
      MCP_MAX_BODY_BYTES: '1024',
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
      rateLimit: { quota: 5, windowSeconds: 10, fail: 'closed', ipv6PrefixBits: 64, redisUrl: 'redis://cache.internal:6379' },
      trustProxyHops: 2,
      accessLog: true,
      mcp: { allowedOrigins: ['https://app.example.com', 'https://agent.example.org'], maxBodyBytes: 1024 },
      deprecation: { successorPath: '/api/v2' },
      docsPage: false,
      contentSignal: 'search=yes, ai-input=no, ai-train=no',
    });
    expect(options.deprecation!.deprecatedAt.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(options.deprecation!.sunsetAt.toISOString()).toBe('2027-06-30T12:00:00.000Z');
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
    ['TRUST_PROXY_HOPS', 'all'],
    ['RATE_LIMIT_IPV6_PREFIX', '31'],
    ['RATE_LIMIT_IPV6_PREFIX', '129'],
    ['RATE_LIMIT_IPV6_PREFIX', '/56'],
    ['ACCESS_LOG', 'text'],
    ['MCP_ALLOWED_ORIGINS', 'https://app.example.com/path'],
    ['MCP_MAX_BODY_BYTES', '10'],
    ['SUCCESSOR_PATH', 'api/v2'],
    ['DOCS_PAGE', 'yes'],
    ['CONTENT_SIGNAL', 'search'],
    ['CONTENT_SIGNAL', 'search=maybe'],
    ['CONTENT_SIGNAL', 'ai_train=no'],
    ['CONTENT_SIGNAL', 'search=yes, search=no'],
    ['CONTENT_SIGNAL', ','],
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
