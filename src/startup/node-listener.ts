/**
 * @module The handler as a node:http `(req, res)` listener, for node:http, Express and other Node
 * servers, so a host app needs no fetch adapter of its own (@hono/node-server's, a dependency here,
 * converts between the two). The client address the quota counts by is the connection's.
 *
 * A body the host app already read (a body parser such as `express.json()` mounted before the
 * listener) is served from `req.body`: bytes and text as they are, a parsed value as JSON again.
 * A body read with nothing left in `req.body` is refused with a problem that says where to mount.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Handler } from '../handler.ts';
import { prepareProblem } from '../http/problem.ts';
import { respond } from '../http/prepared.ts';
import { toResponse } from '../http/answer.ts';
import { nodeAnswers } from './node-answers.ts';
import { andThen } from '../util/maybe.ts';

// Structural stand-ins for node:http's IncomingMessage and ServerResponse (and their HTTP/2 twins,
// Express's req and res too), so that the package's types do not need @types/node.
export interface NodeRequest {
  method?: string | undefined;
  url?: string | undefined;
  headers: object;
}
export interface NodeResponse {
  writeHead(...args: never[]): unknown;
  end(...args: never[]): unknown;
}
export type NodeListener = (req: NodeRequest, res: NodeResponse) => Promise<void>;

/**
 * A request with no body is answered as the Node runtime answers it (node-answers.ts: a prepared
 * answer written with writeHead and end); the rest through @hono/node-server's adapter, as below.
 */
export function toNodeListener(handler: Handler): NodeListener {
  // A host app's own wrapper may be a plain fetch function: its Responses go through the adapter.
  const answer = typeof handler.answer === 'function' ? handler.answer : handler;
  const listener = nodeAnswers(answer, (request, incoming) => {
    const info = { clientAddress: incoming.socket.remoteAddress };
    if (!incoming.readableDidRead) return handler(request, info);
    const body = bodyReadBefore(incoming as IncomingMessage & { body?: unknown });
    return body ? handler(withBody(request, body), info) : bodyParserFirst(request);
  });
  return (req, res) => listener(req as IncomingMessage, res as ServerResponse);
}

/** What a body parser left in `req.body`, as bytes; undefined when nothing usable is left. */
function bodyReadBefore({ body }: { body?: unknown }): Uint8Array<ArrayBuffer> | undefined {
  if (body instanceof Uint8Array) return new Uint8Array(body); // express.raw(); a copy, so the bytes are its own
  if (typeof body === 'string') return new TextEncoder().encode(body); // express.text()
  if (body === undefined) return undefined;
  try {
    // express.json() (and any parser that gives a JSON value): the same message, serialised again.
    const json = JSON.stringify(body);
    return json === undefined ? undefined : new TextEncoder().encode(json);
  } catch {
    return undefined; // a cycle or a BigInt: not a JSON value
  }
}

/** The request with `body` in place of the stream already read, framed and decoded anew. */
function withBody(request: Request, body: Uint8Array<ArrayBuffer>): Request {
  const headers = new Headers(request.headers);
  // The parser has decoded any content coding and read any chunked framing: the bytes are plain.
  for (const name of ['content-encoding', 'transfer-encoding']) headers.delete(name);
  headers.set('content-length', String(body.byteLength));
  return new Request(request.url, { method: request.method, headers, body, signal: request.signal });
}

function bodyParserFirst(request: Request): Response | Promise<Response> {
  const problem = prepareProblem(
    new URL(request.url).origin,
    'internal_error',
    { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
    {
      detail:
        'The host app read the request body before the discovery API could (a body parser mounted before it) and left no usable ' +
        'req.body: mount the listener from toNodeListener() before express.json() or any other body parser.',
    },
  );
  return andThen(respond(request, problem, {}), toResponse);
}
