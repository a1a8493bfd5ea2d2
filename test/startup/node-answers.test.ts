/**
 * The handler on node:http (node-answers.ts), on a real server: a request with no body or a POST
 * framed by Content-Length is answered from the handler's answer written with node:http's own calls,
 * never through the fetch face, and what goes out is what the fetch face would have sent (status,
 * every header, the bytes), header line for header line what @hono/node-server's adapter writes; a
 * chunked body, or a target the adapter normalises, goes through the fetch face.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler, RequestInfo } from '../../src/handler.ts';
import { Answer } from '../../src/http/answer.ts';
import { nodeAnswers } from '../../src/startup/node-answers.ts';
import { closeHandlers, makeHandler } from '../support/handler.ts';
import { frame } from '../support/mcp.ts';
import { exchange, listen, type Exchange, type Listening } from '../support/node-http.ts';

/** The headers that differ between two answers to the same request only by the clock and the count. */
const timeless = ({ date: _d, ratelimit: _r, 'x-ratelimit-reset': _t, 'x-ratelimit-remaining': _n, ...headers }: IncomingHttpHeaders) =>
  headers;

describe('nodeAnswers', () => {
  let handler: Handler;
  let served: Listening;
  const faces: string[] = [];

  beforeAll(async () => {
    handler = await makeHandler();
    const answer = (request: Request, info: RequestInfo) => (faces.push('answer'), handler.answer(request, info));
    served = await listen(
      nodeAnswers(answer, (request, incoming) => (faces.push('fetch'), handler(request, { clientAddress: incoming.socket.remoteAddress }))),
    );
  });
  afterAll(async () => {
    await served?.close();
    await closeHandlers();
  });

  const cases: [string, string, Record<string, string>][] = [
    ['GET', '/api/v1/product', {}],
    ['HEAD', '/api/v1/product', {}],
    ['GET', '/api/v1/product', { 'if-none-match': '*' }],
    ['GET', '/api/v1/product', { accept: 'application/ld+json' }],
    ['GET', '/openapi.json', { 'accept-encoding': 'gzip' }],
    ['GET', '/nope', {}],
    ['GET', '/mcp', {}],
    ['OPTIONS', '/api/v1/product', { origin: 'https://app.example', 'access-control-request-method': 'GET' }],
  ];

  it.each(cases)('writes %s %s as the fetch face sends it, without the fetch face', async (method, path, headers) => {
    faces.length = 0;
    const sent = await exchange(served.port, { path, method, headers });
    expect(faces).toEqual(['answer']);
    const response = await handler(new Request(`http://127.0.0.1:${served.port}${path}`, { method, headers }), {
      clientAddress: '127.0.0.1',
    });
    expect(sent.status).toBe(response.status);
    const fetched: IncomingHttpHeaders = {};
    response.headers.forEach((value, name) => {
      fetched[name] = value;
    });
    const { connection: _c, 'keep-alive': _k, 'transfer-encoding': _t, ...written } = timeless(sent.headers);
    expect(written).toEqual(timeless(fetched));
    expect(sent.body).toEqual(Buffer.from(method === 'HEAD' ? new ArrayBuffer(0) : await response.arrayBuffer()));
  });

  it('sends a chunked body, and a target the adapter normalises, through the fetch face', async () => {
    faces.length = 0;
    const chunked = { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' };
    expect((await exchange(served.port, { path: '/api/v1/product', method: 'POST', headers: chunked, body: 'x' })).status).toBe(405);
    expect((await exchange(served.port, { path: '/api/v1/../v1/product' })).status).toBe(200);
    expect(faces).toEqual(['fetch', 'fetch']);
  });

  it('gives up on a POST whose client leaves before its body is whole, and goes on serving', async () => {
    faces.length = 0;
    const { headers } = frame('legacy', 'tools/list');
    const head = Object.entries({ ...headers, host: `127.0.0.1:${served.port}`, 'content-length': '100' }).map(
      ([n, v]) => `${n}: ${v}\r\n`,
    );
    const socket = connect(served.port, '127.0.0.1');
    const closed = new Promise((resolve) =>
      socket
        .on('close', resolve)
        .on('error', () => {})
        .resume(),
    );
    socket.end(`POST /mcp HTTP/1.1\r\n${head.join('')}\r\n{"jsonrpc":`);
    await closed;
    await expect.poll(() => handler.inFlight).toBe(0);
    expect(faces).toEqual(['answer']);
    expect((await exchange(served.port, { path: '/mcp', method: 'POST', ...frame('legacy', 'tools/list') })).status).toBe(200);
  });
});

describe('nodeAnswers against the adapter alone', () => {
  let light: Listening;
  let adapter: Listening;
  const faces: string[] = [];

  beforeAll(async () => {
    // Each server its own handler, so each sees the same requests in the same order (the MCP replay cache included).
    const [mine, theirs] = await Promise.all([
      makeHandler({ mcp: { maxBodyBytes: 64 * 1024 } }),
      makeHandler({ mcp: { maxBodyBytes: 64 * 1024 } }),
    ]);
    const fetchFace = (handler: Handler) => (request: Request, incoming: { socket: { remoteAddress?: string } }) =>
      handler(request, { clientAddress: incoming.socket.remoteAddress });
    light = await listen(nodeAnswers((request, info) => (faces.push('answer'), mine.answer(request, info)), fetchFace(mine)));
    adapter = await listen(getRequestListener((request, env) => fetchFace(theirs)(request, env.incoming)));
  });
  afterAll(async () => {
    await Promise.all([light?.close(), adapter?.close()]);
    await closeHandlers();
  });

  /** The header lines but those that change from one answer to the next (the clock, the count). */
  const lasting = (raw: string[]) =>
    raw.flatMap((value, i) =>
      i % 2 === 0 && !/^(date|ratelimit|x-ratelimit-remaining|x-ratelimit-reset)$/i.test(value) ? [`${value}: ${raw[i + 1]}`] : [],
    );

  const call = (era: 'legacy' | 'modern', id: number) =>
    frame(era, 'tools/call', { name: 'get_product_overview', arguments: {} }, { id, version: era === 'legacy' ? '2025-06-18' : undefined });
  const posts: [string, Exchange][] = [
    ...[1, 2, 3].map((id): [string, Exchange] => [
      `MCP tools/call, 2025-06-18, id ${id}`,
      { path: '/mcp', method: 'POST', ...call('legacy', id) },
    ]),
    ...[4, 5].map((id): [string, Exchange] => [
      `MCP tools/call, 2026-07-28, id ${id}`,
      { path: '/mcp', method: 'POST', ...call('modern', id) },
    ]),
    ['MCP, a body that is not JSON', { path: '/mcp', method: 'POST', headers: call('legacy', 6).headers, body: '{"jsonrpc":' }],
    [
      'MCP, text/plain',
      { path: '/mcp', method: 'POST', headers: { 'content-type': 'text/plain', accept: 'application/json' }, body: '{}' },
    ],
    ['MCP, a body over the limit', { path: '/mcp', method: 'POST', headers: call('legacy', 7).headers, body: 'x'.repeat(70_000) }],
    ['MCP, an empty body', { path: '/mcp', method: 'POST', headers: call('legacy', 8).headers, body: '' }],
    ['POST to a GET route', { path: '/api/v1/product', method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }],
  ];

  it.each(posts)('writes a POST (%s) without the fetch face, line for line as the adapter', async (_name, request) => {
    faces.length = 0;
    const sent = await exchange(light.port, request);
    const expected = await exchange(adapter.port, request);
    expect(faces).toEqual(['answer']);
    expect(sent.status).toBe(expected.status);
    expect(lasting(sent.rawHeaders)).toEqual(lasting(expected.rawHeaders));
    expect(sent.body.toString()).toBe(expected.body.toString());
  });
});

describe("nodeAnswers' stand-in for Request", () => {
  /** What the handler would read of the request: every header as iterated, one header, and the body's bytes. */
  const seen = async (request: Request) =>
    JSON.stringify({
      headers: [...request.headers],
      keys: [...request.headers.keys()],
      accept: request.headers.get('Accept'),
      cookie: request.headers.get('cookie'),
      missing: request.headers.get('x-missing'),
      body: request.method === 'POST' ? Buffer.from(await request.arrayBuffer()).toString('base64') : null,
    });
  let light: Listening;
  let adapter: Listening;

  beforeAll(async () => {
    light = await listen(
      nodeAnswers(
        async (request) => new Answer(200, { 'Content-Type': 'application/json' }, new TextEncoder().encode(await seen(request))),
        () => new Response('not the light path', { status: 500 }),
      ),
    );
    adapter = await listen(getRequestListener(async (request) => new Response(await seen(request))));
  });
  afterAll(async () => {
    await Promise.all([light?.close(), adapter?.close()]);
  });

  // Names in mixed case, repeated, out of order; values with surrounding spaces; a body in pieces.
  const headers = {
    Host: 'api.example.test',
    'X-Zeta': ' last ',
    Accept: 'text/html',
    'mcp-param-region': 'eu',
    accept: 'application/json',
    Cookie: ['a=1', 'b=2'],
    'X-Alpha': ['1', ' 2'],
  } as unknown as Record<string, string>;
  const requests: [string, Exchange][] = [
    ['a GET', { path: '/x', headers }],
    [
      'a POST in pieces',
      { path: '/x', method: 'POST', headers: { ...headers, 'content-length': '11' }, body: [Buffer.from('hello'), Buffer.from(' world')] },
    ],
    ['an empty POST', { path: '/x', method: 'POST', headers: { ...headers, 'content-length': '0' }, body: '' }],
  ];

  it.each(requests)("reads %s as the adapter's Request reads it", async (_name, request) => {
    const sent = await exchange(light.port, request);
    const expected = await exchange(adapter.port, request);
    expect(sent.status).toBe(200);
    expect(JSON.parse(sent.body.toString())).toEqual(JSON.parse(expected.body.toString()));
  });
});
