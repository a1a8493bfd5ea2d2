/**
 * The two ways Redis over HTTP posts a command (fetch, and node:http on Node) against one local
 * server: the same request reaches it, the same status and text come back, and a failure, an abort
 * or a redirect ends the same way on both; and node:https for an https URL.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, globalAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chosenPost, fetchPost, nodeHttpPost, type Post } from '../../../src/ratelimit/stores/rest-post.ts';
import { listen, type Listening } from '../../support/node-http.ts';
import { freePort } from '../../support/net.ts';

interface Seen {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Listening;
let base: string;
const seen: Seen[] = [];
beforeAll(async () => {
  server = await listen((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body: Buffer.concat(chunks).toString() });
      if (request.url === '/moved') return response.writeHead(307, { location: '/' }).end();
      if (request.url === '/cut') {
        response.writeHead(200, { 'content-length': '100' }).write('{"res');
        return setTimeout(() => response.destroy(), 20);
      }
      if (request.url === '/slow') return setTimeout(() => response.end('{"result":"late"}'), 2000);
      const status = request.headers.authorization === 'Bearer right' ? 200 : 401;
      // A byte order mark and a character outside ASCII, which Response.text() decodes in its own way.
      response.writeHead(status, { 'content-type': 'application/json' }).end(Buffer.from(`\uFEFF{"result":"é ${status}"}`));
    });
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server?.close());

const headers = { authorization: 'Bearer right', 'content-type': 'application/json' };
const send = (post: Post, path: string, signal = new AbortController().signal, sent = headers) =>
  post(`${base}${path}`, '["SCRIPT","LOAD","é"]', sent, signal);

describe.each<[string, Post]>([
  ['fetch', fetchPost],
  ['node:http', nodeHttpPost],
])('posting with %s', (_name, post) => {
  it('sends the body and the caller headers, and gives the status and the text as Response.text() does', async () => {
    seen.length = 0;
    expect(await send(post, '/')).toEqual({ status: 200, text: '{"result":"é 200"}' });
    expect(await send(post, '/', undefined, { ...headers, authorization: 'Bearer wrong' })).toEqual({
      status: 401,
      text: '{"result":"é 401"}',
    });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/', body: '["SCRIPT","LOAD","é"]' });
    expect(seen[0]!.headers).toMatchObject({ authorization: 'Bearer right', 'content-type': 'application/json', 'content-length': '22' });
  });

  it('follows a redirect as fetch does, sending the POST again', async () => {
    seen.length = 0;
    expect(await send(post, '/moved')).toEqual({ status: 200, text: '{"result":"é 200"}' });
    // node:http hands a redirect to fetch, which asks the first URL once more.
    expect(seen.length).toBe(post === fetchPost ? 2 : 3);
    expect(seen.slice(-2).map(({ method, url, body }) => `${method} ${url} ${body}`)).toEqual([
      'POST /moved ["SCRIPT","LOAD","é"]',
      'POST / ["SCRIPT","LOAD","é"]',
    ]);
  });

  it('rejects when nothing listens, when the answer is cut short, and once the signal aborts', async () => {
    await expect(post(`http://127.0.0.1:${await freePort()}/`, '[]', headers, new AbortController().signal)).rejects.toThrow();
    await expect(send(post, '/cut')).rejects.toThrow();
    const abort = new AbortController();
    const started = performance.now();
    const late = send(post, '/slow', abort.signal);
    setTimeout(() => abort.abort(), 50);
    await expect(late).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

it('is node:http on Node, fetch on a runtime that only looks like Node', () => {
  expect(chosenPost()).toBe(nodeHttpPost);
  for (const name of ['Bun', 'Deno'] as const) {
    (globalThis as Record<string, unknown>)[name] = {};
    try {
      expect(chosenPost()).toBe(fetchPost);
    } finally {
      delete (globalThis as Record<string, unknown>)[name];
    }
  }
});

it('posts over TLS with node:https for an https URL', async () => {
  // A certificate for 127.0.0.1 made for this test, trusted by node:https's agent for its length only.
  const dir = mkdtempSync(join(tmpdir(), 'rest-post-'));
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  const tls = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (request, response) => {
    request.resume().on('end', () => response.end(`{"result":"${request.method} over TLS"}`));
  });
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  const trusted = globalAgent.options.ca;
  globalAgent.options.ca = readFileSync(cert);
  try {
    const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/`;
    expect(await nodeHttpPost(url, '["PING"]', headers, new AbortController().signal)).toEqual({
      status: 200,
      text: '{"result":"POST over TLS"}',
    });
  } finally {
    globalAgent.options.ca = trusted;
    globalAgent.destroy();
    await new Promise((resolve) => tls.close(resolve));
    rmSync(dir, { recursive: true });
  }
});
