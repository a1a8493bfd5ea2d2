/**
 * Verified agents on the runtimes themselves: Bun, Deno, Node and the Worker in workerd (Miniflare) each
 * fetch the agent's key directory from a loopback origin, verify Ed25519 signatures with their own
 * WebCrypto, and count a signed request under the agent's policy, an unsigned or badly signed one by
 * its address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEntry, type RunningEntry } from '../support/entries.ts';
import { awayFromWindowEdge } from '../support/ratelimit.ts';
import { freshKey, serveDirectory, signedHeaders, type DirectoryServer } from '../support/web-bot-auth.ts';

const BASE = 'https://api.example.test';

describe.each(['bun', 'deno', 'node', 'workers'] as const)('verified agents on %s', (runtime) => {
  let directory: DirectoryServer;
  let entry: RunningEntry;
  beforeAll(async () => {
    directory = await serveDirectory();
    entry = await startEntry(
      runtime,
      {
        PUBLIC_BASE_URL: BASE,
        RATE_LIMIT_QUOTA: '5',
        RATE_LIMIT_WINDOW_SECONDS: '3600',
        RATE_LIMIT_POLICIES: JSON.stringify([{ name: 'signer', agents: [directory.origin], quota: 50, windowSeconds: 3600 }]),
        ACCESS_LOG: 'json',
      },
      { timeoutMs: 90_000 },
    );
  }, 120_000);
  afterAll(async () => {
    await entry?.stop();
    await directory?.close();
  });

  it('counts signed requests under the agent, unsigned and badly signed ones by address', async () => {
    await awayFromWindowEdge(3600);
    const ask = async (headers: Record<string, string> = {}) => {
      // The Worker's local runner gives the caller's address as CF-Connecting-IP.
      const response = await fetch(`${entry.url}/api/v1`, { headers });
      await response.arrayBuffer();
      return [response.status, response.headers.get('ratelimit-policy'), response.headers.get('x-ratelimit-remaining')];
    };
    const authority = new URL(BASE).host;
    const signed = async (options: Partial<Parameters<typeof signedHeaders>[0]> = {}) =>
      ask(await signedHeaders({ authority, agent: directory.origin, ...options }));

    expect(await signed()).toEqual([200, '"signer";q=50;w=3600', '49']);
    expect(await signed({ form: 'string' })).toEqual([200, '"signer";q=50;w=3600', '48']);
    expect(await ask()).toEqual([200, '"default";q=5;w=3600', '4']);
    expect(await signed({ key: await freshKey() })).toEqual([200, '"default";q=5;w=3600', '3']);
    expect(await signed({ authority: 'other.example.test' })).toEqual([200, '"default";q=5;w=3600', '2']);
    expect(await signed()).toEqual([200, '"signer";q=50;w=3600', '47']);
    expect(directory.requests).toBe(1);
    await expect.poll(() => entry.output()).toContain(`"agentVerified":"${directory.origin}"`);
  });
});
