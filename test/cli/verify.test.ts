/**
 * `product-discovery verify URL`, called in this process: a URL that is not http(s) refused before any
 * request (exit 2), a deployment that cannot be reached named with the reason (exit 1), and a
 * deployment that passes reported (exit 0) with --json as JSON.
 */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../src/cli/verify.ts';
import { makeHandler } from '../support/handler.ts';
import { freePort } from '../support/net.ts';

async function run(url: string, json = false) {
  let stdout = '';
  let stderr = '';
  const code = await verify(url, json, { out: (text) => (stdout += `${text}\n`), err: (text) => (stderr += `${text}\n`), color: false });
  return { code, stdout, stderr };
}

describe('product-discovery verify', () => {
  it.each(['not-a-url', 'ftp://a.example'])('refuses %s before any request, exit 2', async (url) => {
    expect(await run(url)).toEqual({
      code: 2,
      stdout: '',
      stderr: `product-discovery verify: ${JSON.stringify(url)} is not an http or https URL, e.g. https://api.example.com\n`,
    });
  });

  it('names why a deployment cannot be reached, exit 1', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const { code, stdout, stderr } = await run(url);
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toMatch(new RegExp(`^product-discovery verify: cannot reach ${url}: connection refused by 127\\.0\\.0\\.1 port \\d+`));
  });

  describe('against a deployment that keeps the contract', () => {
    let server: ReturnType<typeof serve>;
    let url = '';
    beforeAll(async () => {
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      const handler = await makeHandler({ publicBaseUrl: url });
      server = serve({ fetch: (request) => handler(request), hostname: '127.0.0.1', port });
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      expect((server.address() as AddressInfo).port).toBe(port);
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('reports every check passed, exit 0, as JSON with --json', async () => {
      const { code, stdout, stderr } = await run(url, true);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ ok: true });
    });
  });
});
