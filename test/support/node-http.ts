/**
 * node:http on both sides, for the tests of the Node listeners (startup/node-listener.ts,
 * startup/node-answers.ts): a server on a free loopback port, and one request over its own
 * connection with node:http's client, no fetch in between.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The header lines as sent: name, value, name, value... in order and case. */
  rawHeaders: string[];
  body: Buffer;
}

export interface Exchange {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** The client's side of the connection: 127.0.0.x or ::1. */
  from?: string;
  /** The request body, sent as one piece or as these pieces with a pause between them. */
  body?: string | Buffer | Buffer[];
  pauseMs?: number;
}

export interface Listening {
  server: Server;
  port: number;
  /** Drops every connection and closes the server (for afterAll). */
  close(): Promise<void>;
}

/** A node:http server whose every request goes to `listener`, on `host` (:: takes IPv6 and IPv4). */
export async function listen(listener: RequestListener, host = '127.0.0.1'): Promise<Listening> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** One request to the port over its own connection; a body in pieces stops once the answer has come. */
export function exchange(
  port: number,
  { method = 'GET', path, headers = {}, from = '127.0.0.1', body, pauseMs = 20 }: Exchange,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const host = from.includes(':') ? '::1' : '127.0.0.1';
    let answered = false;
    const req = httpRequest({ host, port, method, path, headers, localAddress: from, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (!Array.isArray(body)) return req.end(body);
    void (async () => {
      for (const piece of body) {
        // A client stops sending once it has its answer (a 413 before the body's end).
        if (answered || req.destroyed) break;
        req.write(piece);
        await new Promise((resume) => setTimeout(resume, pauseMs));
      }
      req.end();
    })();
  });
}
