/**
 * Deno Deploy's entry under `deno serve`, started with the command docs/deploy/deno-deploy.md gives:
 * `{base}` from the listening address locally and required on Deno Deploy, the client from the
 * connection, and the quota shared through one Deno KV file by two processes, exact under 50
 * concurrent requests.
 */
import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serve, spawnDocumented } from '../support/deno-serve.ts';
import { ROOT } from '../support/entries.ts';
import { ERAS, expectJsonRpcAnswer, frame, nestedRequests } from '../support/mcp.ts';

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

  it('answers bad input with the contract: nested JSON a JSON-RPC answer, a long chunked body 413, a cut-off body no failure', async () => {
    const served = await serve({ RATE_LIMIT_QUOTA: '1000' });
    try {
      for (const era of ERAS) {
        for (const { id, headers, body } of nestedRequests(era)) {
          const answer = await fetch(`${served.url}/mcp`, { method: 'POST', headers, body });
          expectJsonRpcAnswer(answer.status, answer.headers.get('content-type'), await answer.text(), id);
        }
      }
      const { headers } = frame('legacy', 'tools/list');
      const long = new Blob(['x'.repeat(2 * 1024 * 1024)]).stream();
      const refused = await fetch(`${served.url}/mcp`, { method: 'POST', headers, body: long, duplex: 'half' } as RequestInit);
      expect(refused.status).toBe(413);
      expect((await refused.json()).detail).toBe('The body is larger than 65536 bytes.');
      // A client that declares 1,000 bytes, sends 11 and goes away.
      const { port, hostname } = new URL(served.url);
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(
            `POST /mcp HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`,
          );
          setTimeout(() => socket.destroy(), 200);
        });
        socket.on('close', () => resolve());
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await fetch(`${served.url}/api/v1`)).status).toBe(200);
      expect(served.output()).not.toMatch(/request_failed|internal_error/);
    } finally {
      await served.stop();
    }
  });

  it('serves its export called directly, without the serve info (no client address)', async () => {
    const script =
      "const { default: entry } = await import('./src/entry/deno-deploy.ts');" +
      "const answer = await entry.fetch(new Request('http://localhost/api/v1'), undefined as never);" +
      "console.log(JSON.stringify({ status: answer.status, limit: answer.headers.get('x-ratelimit-limit') }));";
    const output = execFileSync(join(ROOT, 'node_modules/.bin/deno'), ['eval', '--ext=ts', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', PUBLIC_BASE_URL: 'https://api.example.test' },
      encoding: 'utf8',
    });
    expect(JSON.parse(output.trim().split('\n').at(-1)!)).toEqual({ status: 200, limit: '120' });
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
