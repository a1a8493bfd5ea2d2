/**
 * The handler on node:http (node-answers.ts), on a real server: a request with no body is answered
 * from the handler's prepared answer written with writeHead and end, never through the fetch face,
 * and what goes out is what the fetch face would have sent (status, every header, the bytes); a
 * request with a body, or a target the adapter normalises, goes through the fetch face.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler, RequestInfo } from '../../src/handler.ts';
import { nodeAnswers } from '../../src/startup/node-answers.ts';
import { closeHandlers, makeHandler } from '../support/handler.ts';
import { exchange, listen, type Listening } from '../support/node-http.ts';

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

  it('sends a request with a body, and a target the adapter normalises, through the fetch face', async () => {
    faces.length = 0;
    expect(
      (await exchange(served.port, { path: '/api/v1/product', method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }))
        .status,
    ).toBe(405);
    expect((await exchange(served.port, { path: '/api/v1/../v1/product' })).status).toBe(200);
    expect(faces).toEqual(['fetch', 'fetch']);
  });
});
