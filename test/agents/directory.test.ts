import { afterEach, describe, expect, it } from 'vitest';
import { DIRECTORY_LIMITS, freshSeconds, jwkThumbprint, keyDirectory } from '../../src/agents/directory.ts';
import type { LogEntry } from '../../src/util/log.ts';
import { freshKey, publicJwk, serveDirectory, TEST_KEY_THUMBPRINT, type DirectoryServer } from '../support/web-bot-auth.ts';

const servers: DirectoryServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function directory(answer: Parameters<typeof serveDirectory>[0] = {}) {
  const server = await serveDirectory(answer);
  servers.push(server);
  const logged: LogEntry[] = [];
  let clock = 1_000_000;
  const keyOf = keyDirectory({ logger: (entry) => logged.push(entry), now: () => clock });
  return {
    server,
    logged,
    keyOf: (keyid = TEST_KEY_THUMBPRINT) => keyOf(server.origin, keyid),
    pass: (seconds: number) => void (clock += seconds),
  };
}

describe('keyDirectory', () => {
  it('finds a key by its RFC 7638 thumbprint, asking the origin once while the directory is fresh', async () => {
    const { server, keyOf, pass } = await directory({ cacheControl: 'max-age=300' });
    const key = await keyOf();
    expect(key?.algorithm.name).toBe('Ed25519');
    expect(await keyOf('not-a-thumbprint')).toBeUndefined();
    await Promise.all([keyOf(), keyOf(), keyOf()]);
    pass(299);
    expect(await keyOf()).toBeDefined();
    expect(server.requests).toBe(1);
    pass(2);
    // Stale now: the known key answers while the directory is asked again.
    expect(await keyOf()).toBeDefined();
    await expect.poll(() => server.requests).toBe(2);
  });

  it('asks once for concurrent first lookups', async () => {
    const { server, keyOf } = await directory();
    const keys = await Promise.all(Array.from({ length: 20 }, () => keyOf()));
    expect(keys.every(Boolean)).toBe(true);
    expect(server.requests).toBe(1);
  });

  it('keeps a directory no less than a minute, however short its max-age', async () => {
    const { server, keyOf, pass } = await directory({ cacheControl: 'no-store' });
    await keyOf();
    pass(59);
    await keyOf();
    expect(server.requests).toBe(1);
  });

  it.each([
    [null, DIRECTORY_LIMITS.defaultFreshSeconds],
    ['max-age=600', 600],
    ['public, max-age="900"', 900],
    ['s-maxage=120, public', 120],
    ['max-age=0', 60],
    ['no-cache', 60],
    ['max-age=31536000, immutable', 86_400],
    ['private', DIRECTORY_LIMITS.defaultFreshSeconds],
  ])('reads Cache-Control %j as %i seconds', (header, seconds) => {
    expect(freshSeconds(header)).toBe(seconds);
  });

  it.each([
    [
      'another media type',
      { mediaType: 'application/json' },
      'is application/json, not application/http-message-signatures-directory+json',
    ],
    ['a redirect', { status: 302, location: 'https://elsewhere.example/keys' }, 'answered 302, not 200 (redirects are not followed)'],
    ['an error status', { status: 500 }, 'answered 500, not 200'],
    ['a body past the bound', { padding: DIRECTORY_LIMITS.maxBytes }, 'is larger than 65536 bytes'],
    ['no keys list', { keys: 'none' as unknown as object[] }, 'has no "keys" list'],
  ])('finds no key in a directory with %s, and logs why once', async (_, answer, reason) => {
    const { keyOf, logged, pass } = await directory(answer);
    expect(await keyOf()).toBeUndefined();
    pass(DIRECTORY_LIMITS.retrySeconds);
    expect(await keyOf()).toBeUndefined();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 'warn', event: 'agent_directory_unavailable' });
    expect(logged[0]!.reason).toContain(reason);
  });

  it('passes over keys that are not Ed25519 and keeps the rest', async () => {
    const other = await freshKey();
    const { keyOf } = await directory({
      keys: [
        { kty: 'EC', crv: 'P-256', x: 'a', y: 'b' },
        { kty: 'OKP', crv: 'Ed25519', x: 'short' },
        null as unknown as object,
        publicJwk(other),
      ],
    });
    expect(await keyOf()).toBeUndefined();
    expect(await keyOf(await jwkThumbprint(other.x))).toBeDefined();
  });

  it('after a failure, asks again no sooner than the retry bound; stale keys serve meanwhile, for a bounded time', async () => {
    const { server, keyOf, logged, pass } = await directory({ cacheControl: 'max-age=60' });
    expect(await keyOf()).toBeDefined();
    server.set({ status: 503 });
    pass(61);
    // Stale: the refresh fails in the background, the known key still answers.
    expect(await keyOf()).toBeDefined();
    await expect.poll(() => server.requests).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    pass(DIRECTORY_LIMITS.retrySeconds - 1);
    expect(await keyOf()).toBeDefined();
    expect(server.requests).toBe(2);
    pass(DIRECTORY_LIMITS.staleSeconds);
    expect(await keyOf()).toBeUndefined();
    expect(server.requests).toBe(3);
    server.set({ status: 200 });
    pass(DIRECTORY_LIMITS.retrySeconds);
    expect(await keyOf()).toBeDefined();
    expect(logged.map((entry) => entry.event)).toEqual(['agent_directory_unavailable', 'agent_directory_regained']);
  });

  it('waits no longer than its deadline for an origin that never answers', async () => {
    const { keyOf, logged } = await directory({ hang: true });
    const started = performance.now();
    expect(await Promise.all([keyOf(), keyOf()])).toEqual([undefined, undefined]);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(DIRECTORY_LIMITS.fetchTimeoutMs - 50);
    expect(waited).toBeLessThan(DIRECTORY_LIMITS.fetchTimeoutMs + 1_500);
    expect(logged).toMatchObject([{ event: 'agent_directory_unavailable' }]);
  });

  it('finds no key when the origin does not answer, without throwing', async () => {
    const { server, keyOf } = await directory();
    await server.close();
    expect(await keyOf()).toBeUndefined();
  });
});
