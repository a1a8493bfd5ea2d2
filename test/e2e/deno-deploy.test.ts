/**
 * Deno Deploy's entry under `deno serve`, started with the command docs/deploy/deno-deploy.md gives:
 * `{base}` from the listening address locally and required on Deno Deploy, the client from the
 * connection, and the quota shared through one Deno KV file by two processes, exact under 50
 * concurrent requests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serve, spawnDocumented } from '../support/deno-serve.ts';

const dir = mkdtempSync(join(tmpdir(), 'e2e-deno-deploy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Deno Deploy entry under deno serve', () => {
  it('serves with the documented command, {base} the listening address, each client by its connection', async () => {
    const served = await serve({ RATE_LIMIT_QUOTA: '10', RATE_LIMIT_WINDOW_SECONDS: '3600' });
    try {
      // The start line names the product, as every entry's does.
      expect(served.output()).toMatch(
        new RegExp(`^Serving Lumen Galleries public API \\S+ on ${served.url} \\(public base ${served.url}\\)$`, 'm'),
      );
      const index = await fetch(`${served.url}/api/v1`);
      expect(index.status).toBe(200);
      expect(await index.text()).toContain(`${served.url}/openapi.json`);
      // A forged X-Forwarded-For or Host changes neither the client nor {base}.
      const forged = await fetch(`${served.url}/api/v1`, { headers: { 'x-forwarded-for': '192.0.2.99', host: 'forged.example' } });
      expect(forged.headers.get('x-ratelimit-remaining')).toBe('8');
      expect(await forged.text()).not.toContain('forged.example');
      const health = await (await fetch(`${served.url}/api/v1/health`)).json();
      expect(health).toMatchObject({ status: 'ok', rateLimitStore: 'memory' });
    } finally {
      await served.stop();
    }
  });

  it('refuses to load on Deno Deploy without PUBLIC_BASE_URL, naming it, exit 1', async () => {
    const { exited, output } = spawnDocumented({ DENO_DEPLOYMENT_ID: 'abc123' });
    expect(await exited).toBe(1);
    expect(output()).toContain('Invalid configuration:\n  PUBLIC_BASE_URL is unset: on Deno Deploy it is required');
    expect(output()).not.toMatch(/^\s+at .+[:(]\d+/m);
  });

  it('refuses a KV file it cannot open, naming RATE_LIMIT_DENO_KV', async () => {
    const { exited, output } = spawnDocumented({ RATE_LIMIT_DENO_KV: join(dir, 'no/such/dir/counters.kv') });
    expect(await exited).toBe(1);
    expect(output()).toContain('Invalid configuration:\n  RATE_LIMIT_DENO_KV=');
    expect(output()).toContain('Deno KV cannot be opened');
  });

  it('admits exactly the quota (5) of 50 concurrent requests to two processes sharing one KV file', async () => {
    const env = {
      RATE_LIMIT_DENO_KV: join(dir, 'counters.kv'),
      RATE_LIMIT_QUOTA: '5',
      RATE_LIMIT_WINDOW_SECONDS: '3600',
      PUBLIC_BASE_URL: 'https://api.example.test',
    };
    const first = await serve(env);
    const second = await serve(env);
    try {
      const replies = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const response = await fetch(`${(i % 2 ? second : first).url}/api/v1`);
          await response.arrayBuffer();
          return { status: response.status, remaining: response.headers.get('x-ratelimit-remaining') };
        }),
      );
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(5);
      expect(replies.filter((reply) => reply.status === 429)).toHaveLength(45);
      expect(
        replies
          .filter((reply) => reply.status === 200)
          .map((reply) => reply.remaining)
          .sort(),
      ).toEqual(['0', '1', '2', '3', '4']);
      for (const served of [first, second]) {
        expect(await (await fetch(`${served.url}/api/v1/health`)).json()).toMatchObject({ status: 'ok', rateLimitStore: 'deno-kv' });
        expect(served.output()).not.toContain('rate_limit_store_lost');
      }
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });
});
