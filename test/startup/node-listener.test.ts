/**
 * The handler as a node:http `(req, res)` listener, on a real node:http server listening on both
 * IPv4 and IPv6: the request (method, path, query, headers) reaches the handler as sent, its body
 * too (whole, in chunks, or refused over the limit with an answer the client reads), the quota
 * counts by the connection's address and never by X-Forwarded-For, and the answer goes out byte for
 * byte, streamed as it is produced. In an Express app whose body parser runs first, the body comes
 * from req.body, or is refused with a problem that says where to mount the listener.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_ASSET_FILES } from '../../src/docs/generated/manifest.ts';
import type { Handler } from '../../src/handler.ts';
import type { LogEntry } from '../../src/util/log.ts';
import { toNodeListener } from '../../src/startup/node-listener.ts';
import { closeHandlers, makeHandler, send } from '../support/handler.ts';
import { frame } from '../support/mcp.ts';
import { type Answer, exchange as nodeExchange, listen, type Exchange, type Listening } from '../support/node-http.ts';

const QUOTA = 1000;
const MAX_BODY = 4096;

describe('toNodeListener on a node:http server', () => {
  let handler: Handler;
  let served: Listening;
  const logged: LogEntry[] = [];

  beforeAll(async () => {
    handler = await makeHandler({
      rateLimit: { quota: QUOTA },
      mcp: { maxBodyBytes: MAX_BODY },
      accessLog: true,
      logger: (entry) => logged.push(entry),
    });
    served = await listen(toNodeListener(handler), '::');
  });
  afterAll(async () => {
    await served?.close();
    await closeHandlers();
  });

  const exchange = (request: Exchange) => nodeExchange(served.port, request);

  /** The access-log line of the last request to `path`. */
  const lastLine = (path: string) => logged.filter((entry) => entry.event === 'request' && entry.path === path).at(-1);

  describe('the request', () => {
    it('answers a GET with the status, headers and bytes the handler gives for it', async () => {
      const direct = await send(handler, '/openapi.json?unused=1');
      const answer = await exchange({ path: '/openapi.json?unused=1' });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(Buffer.from(await direct.arrayBuffer()));
      for (const name of ['content-type', 'etag', 'cache-control', 'link', 'x-content-type-options', 'ratelimit-policy']) {
        expect(answer.headers[name], name).toBe(direct.headers.get(name));
      }
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    });

    it('passes the method and the request headers: HEAD, If-None-Match, Accept', async () => {
      const get = await exchange({ path: '/api/v1/product' });
      const head = await exchange({ method: 'HEAD', path: '/api/v1/product' });
      expect(head.status).toBe(200);
      expect(head.body).toHaveLength(0);
      // RFC 9110 section 8.6: a HEAD's Content-Length is the GET body's, or absent.
      if (head.headers['content-length'] !== undefined) expect(Number(head.headers['content-length'])).toBe(get.body.length);

      const notModified = await exchange({ path: '/api/v1/product', headers: { 'if-none-match': get.headers.etag! } });
      expect(notModified.status).toBe(304);
      expect(notModified.body).toHaveLength(0);

      const markdown = await exchange({ path: '/api/v1/product', headers: { accept: 'text/markdown' } });
      expect(markdown.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(markdown.body.toString()).toMatch(/^# /);
    });

    it('answers a method or a path the service does not take with its problem', async () => {
      const wrong = await exchange({ method: 'DELETE', path: '/api/v1' });
      expect(wrong.status).toBe(405);
      expect(wrong.headers.allow).toMatch(/GET/);
      const unknown = await exchange({ path: '/nowhere' });
      expect(unknown.status).toBe(404);
      expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(unknown.body.toString())).toMatchObject({ code: 'api_route_not_found' });
    });
  });

  describe('the request body', () => {
    const { headers, body } = frame('modern', 'tools/call', { name: 'list_start_options', arguments: {} });

    it('reaches the MCP endpoint whole', async () => {
      const answer = await exchange({ method: 'POST', path: '/mcp', headers, body });
      expect(answer.status, answer.body.toString()).toBe(200);
      expect(JSON.parse(answer.body.toString()).result.structuredContent.startOptions.length).toBeGreaterThan(0);
    });

    it('reaches it whole when it arrives in pieces, chunked', async () => {
      const bytes = Buffer.from(body);
      const pieces = [bytes.subarray(0, 7), bytes.subarray(7, 40), bytes.subarray(40)];
      const answer = await exchange({
        method: 'POST',
        path: '/mcp',
        headers: { ...headers, 'transfer-encoding': 'chunked' },
        body: pieces,
      });
      expect(answer.status, answer.body.toString()).toBe(200);
      expect(JSON.parse(answer.body.toString()).id).toBe(JSON.parse(body).id);
    });

    it('over the limit, declared or not, gets its 413 problem read whole by the client, not a reset', async () => {
      const start = '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"';
      const declared = await exchange({ method: 'POST', path: '/mcp', headers, body: `${start + ' '.repeat(2 * MAX_BODY)}"}}` });
      // Four times the limit in 1 KiB pieces, a little apart, with no length announced.
      const pieces = Array.from({ length: (4 * MAX_BODY) / 1024 }, () => Buffer.alloc(1024, 0x20));
      pieces[0] = Buffer.concat([Buffer.from(start), pieces[0]!]);
      const chunked = await exchange({
        method: 'POST',
        path: '/mcp',
        headers: { ...headers, 'transfer-encoding': 'chunked' },
        body: pieces,
      });
      for (const answer of [declared, chunked]) {
        expect(answer.status).toBe(413);
        expect(JSON.parse(answer.body.toString())).toMatchObject({ status: 413, code: 'payload_too_large' });
      }
    });
  });

  describe("the client's address", () => {
    const remaining = (answer: Answer) => Number(answer.headers['x-ratelimit-remaining']);

    it("is the connection's, IPv4 or IPv6, as the access log and the quota see it", async () => {
      await exchange({ path: '/api/v1', from: '127.0.0.2' });
      // An IPv4 client of a dual-stack server arrives as ::ffff:127.0.0.2 and is counted as 127.0.0.2.
      expect(lastLine('/api/v1')).toMatchObject({ client: '127.0.0.2', status: 200 });
      await exchange({ path: '/api/v1', from: '::1' });
      // IPv6 clients are counted by their /56.
      expect(lastLine('/api/v1')).toMatchObject({ client: '::/56' });
    });

    it('counts each address on its own', async () => {
      expect(remaining(await exchange({ path: '/api/v1', from: '127.0.0.4' }))).toBe(QUOTA - 1);
      expect(remaining(await exchange({ path: '/api/v1', from: '127.0.0.5' }))).toBe(QUOTA - 1);
      expect(remaining(await exchange({ path: '/api/v1', from: '127.0.0.4' }))).toBe(QUOTA - 2);
    });

    it('is never taken from X-Forwarded-For, with no proxy trusted', async () => {
      await exchange({ path: '/llms.txt', from: '127.0.0.6', headers: { 'x-forwarded-for': '198.51.100.1' } });
      expect(lastLine('/llms.txt')).toMatchObject({ client: '127.0.0.6' });
    });
  });

  describe('the answer', () => {
    const largest = [...DOCS_ASSET_FILES].sort((a, b) => b.bytes - a.bytes)[0]!;

    // Compared by their SHA-256, which the docs page's manifest records for each file.
    const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

    it(`sends a large body (the docs page's ${largest.bytes} byte script) byte for byte`, async () => {
      const answer = await exchange({ path: `/docs/${largest.file}` });
      expect(answer.status).toBe(200);
      expect(answer.body.length).toBe(largest.bytes);
      expect(sha256(answer.body)).toBe(largest.sha256);
    });

    it('sends the gzip variant as it is coded, not coded again', async () => {
      const coded = await exchange({ path: `/docs/${largest.file}`, headers: { 'accept-encoding': 'gzip' } });
      expect(coded.headers['content-encoding']).toBe('gzip');
      expect(coded.body.length).toBeLessThan(largest.bytes);
      expect(sha256(gunzipSync(coded.body))).toBe(largest.sha256);
    });
  });
});

describe('toNodeListener with an answer produced over time', () => {
  // The service's own answers are whole bodies made in advance; a host app that wraps the handler
  // may answer with a stream. This handler (standing in for such a wrapper) sends a first piece,
  // then the rest only once the test lets it, so the test sees whether the listener waited for the end.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const streaming = (async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode('first piece\n'));
          await released;
          controller.enqueue(new TextEncoder().encode('last piece\n'));
          controller.close();
        },
      }),
      { headers: { 'content-type': 'text/plain; charset=utf-8' } },
    )) as unknown as Handler;
  let served: Listening;

  beforeAll(async () => {
    served = await listen(toNodeListener(streaming), '::');
  });
  afterAll(async () => {
    release();
    await served?.close();
  });

  it('sends each piece as it comes, without waiting for the end', async () => {
    const pieces: string[] = [];
    let releasedBy: 'the first piece' | 'the clock' | undefined;
    // A listener that waits for the end would hold the first piece until the clock lets the rest go.
    const clock = setTimeout(() => {
      releasedBy ??= 'the clock';
      release();
    }, 2000);
    await new Promise<void>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port: served.port, path: '/stream', agent: false }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (piece: string) => {
          pieces.push(piece);
          releasedBy ??= 'the first piece';
          release();
        });
        res.on('end', resolve);
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
    clearTimeout(clock);
    expect(releasedBy).toBe('the first piece');
    expect(pieces[0]).toBe('first piece\n');
    expect(pieces.join('')).toBe('first piece\nlast piece\n');
  });
});

describe('toNodeListener in an Express app whose body parser runs first', () => {
  // The mistake the module comment warns of, made on purpose: parsers mounted before the listener.
  let handler: Handler;
  let served: Listening;

  beforeAll(async () => {
    handler = await makeHandler({ mcp: { maxBodyBytes: MAX_BODY } });
    const discovery = toNodeListener(handler);
    const app = express();
    app.use('/json', express.json({ type: ['application/json'] }));
    app.use('/raw', express.raw({ type: () => true }));
    app.use('/text', express.text({ type: () => true }));
    app.use('/form', express.urlencoded({ extended: false }));
    // A middleware that drains the stream and keeps nothing (a logger that reads the body, say).
    app.use('/drained', (req, _res, next) => void req.resume().on('end', () => next()));
    // Mounted under a prefix, Express strips it from req.url: the service sees /mcp.
    for (const prefix of ['/json', '/raw', '/text', '/form', '/drained']) app.use(prefix, (req, res) => discovery(req, res));
    served = await listen(app);
  });
  afterAll(async () => {
    await served?.close();
    await closeHandlers();
  });

  const post = (path: string, headers: Record<string, string>, body: string | Buffer) =>
    nodeExchange(served.port, { method: 'POST', path, headers, body });

  const call = () => frame('modern', 'tools/call', { name: 'list_start_options', arguments: {} });

  it.each(['/json', '/raw', '/text'])(
    'serves POST /mcp from the body %s parsed (req.body), as if it had read the stream',
    async (prefix) => {
      const { headers, body } = call();
      const answer = await post(`${prefix}/mcp`, headers, body);
      expect(answer.status, answer.body.toString()).toBe(200);
      const reply = JSON.parse(answer.body.toString());
      expect(reply.id).toBe(JSON.parse(body).id);
      expect(reply.result.structuredContent.startOptions.length).toBeGreaterThan(0);
    },
  );

  it('serves a gzip-coded body express.json() inflated, with the length of what it passes on', async () => {
    const { headers, body } = call();
    const answer = await post('/json/mcp', { ...headers, 'content-encoding': 'gzip' }, gzipSync(body));
    expect(answer.status, answer.body.toString()).toBe(200);
    expect(JSON.parse(answer.body.toString()).id).toBe(JSON.parse(body).id);
  });

  it('still refuses what it refuses when reading the stream itself: a form body (415), a body over the limit (413)', async () => {
    const form = await post('/form/mcp', { 'content-type': 'application/x-www-form-urlencoded' }, 'jsonrpc=2.0&method=tools%2Flist');
    expect(form.status).toBe(415);
    expect(JSON.parse(form.body.toString())).toMatchObject({ code: 'unsupported_media_type' });
    const { headers } = call();
    const large = await post(
      '/json/mcp',
      headers,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: ' '.repeat(2 * MAX_BODY) } }),
    );
    expect(large.status).toBe(413);
    expect(JSON.parse(large.body.toString())).toMatchObject({ code: 'payload_too_large' });
  });

  it('refuses a body read with nothing left in req.body with a problem that says to mount the listener first', async () => {
    const { headers, body } = call();
    const answer = await post('/drained/mcp', headers, body);
    expect(answer.status).toBe(500);
    expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    const problem = JSON.parse(answer.body.toString());
    expect(problem).toMatchObject({ status: 500, code: 'internal_error' });
    expect(problem.detail).toMatch(/mount the listener from toNodeListener\(\) before express\.json\(\) or any other body parser/);
  });

  it('answers a GET behind the body parsers as ever', async () => {
    const answer = await new Promise<number>((resolve, reject) =>
      httpRequest({ host: '127.0.0.1', port: served.port, path: '/json/api/v1', agent: false }, (res) => resolve(res.resume().statusCode!))
        .on('error', reject)
        .end(),
    );
    expect(answer).toBe(200);
  });
});
