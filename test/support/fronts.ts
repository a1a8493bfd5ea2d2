/**
 * Deliberately broken fronts: a small node:http reverse proxy, as nginx or a CDN would stand in
 * front of the service, that counts the requests it passes and breaks one promise of the contract
 * at a time. Like nginx by default, it sends the upstream's host as Host.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What each front does to an answer on its way back. */
export const BREAKS = {
  /** Passes everything as it is. */
  none: (reply: Reply) => reply,
  /** Drops the RateLimit field (as `proxy_hide_header RateLimit` would). */
  'strip-ratelimit': (reply: Reply) => without(reply, (name) => name === 'ratelimit'),
  /** Serves its own HTML page for every 404 (as `proxy_intercept_errors on` with `error_page 404` would). */
  'html-404': (reply: Reply): Reply =>
    reply.status === 404
      ? {
          ...reply,
          headers: { ...reply.headers, 'content-type': 'text/html' },
          body: Buffer.from('<!doctype html><title>Not found</title><h1>404 Not Found</h1>\n'),
        }
      : reply,
  /** Drops every CORS field. */
  'drop-cors': (reply: Reply) => without(reply, (name) => name.startsWith('access-control-')),
} satisfies Record<string, (reply: Reply) => Reply>;

export type Break = keyof typeof BREAKS | 'cache-429';

function without(reply: Reply, drop: (name: string) => boolean): Reply {
  return { ...reply, headers: Object.fromEntries(Object.entries(reply.headers).filter(([name]) => !drop(name))) };
}

export interface Front {
  url: string;
  /** Every request received: `METHOD /path`. */
  seen: string[];
  break: Break;
  /** Fields dropped from every answer besides the break, e.g. Sunset. */
  drop?: (name: string) => boolean;
  /** Where requests go (settable after start, so the service can be told the front's URL). */
  upstream: string;
  close(): Promise<void>;
}

export async function startFront(brk: Break = 'none', upstream = ''): Promise<Front> {
  // cache-429: a shared cache that stores any 429 per URL and serves it to everyone after (no Age, as nginx).
  const stored = new Map<string, Reply>();
  const server = createServer((req, res) => {
    front.seen.push(`${req.method} ${req.url}`);
    const send = ({ status, headers, body }: Reply) => {
      res.writeHead(status, { ...headers, 'content-length': req.method === 'HEAD' ? headers['content-length'] : String(body.byteLength) });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const key = `${req.method} ${req.url}`;
    if (front.break === 'cache-429' && stored.has(key)) return send(stored.get(key)!);
    const target = new URL(req.url!, front.upstream);
    const headers = { ...req.headers, host: target.host };
    const out = httpRequest(target, { method: req.method, headers, agent: false }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const reply: Reply = { status: answer.statusCode!, headers: { ...answer.headers }, body: Buffer.concat(chunks) };
        delete reply.headers['transfer-encoding'];
        delete reply.headers.connection;
        if (front.break === 'cache-429') {
          if (reply.status === 429) stored.set(key, reply);
          return send(reply);
        }
        const broken = BREAKS[front.break](reply);
        send(front.drop ? without(broken, front.drop) : broken);
      });
    });
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const front: Front = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen: [],
    break: brk,
    upstream,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return front;
}
