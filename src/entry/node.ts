/** @module Serves the handler on Node through @hono/node-server. */
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { listeningUrl, start } from '../startup/start.ts';

// Bun cuts a connection after 10 s without a byte (its default idleTimeout; about 12 s measured for a
// half-sent request). Node's defaults let one hold a half-sent request for 60 s (headers) or 300 s
// (body), checked every 30 s: here 10 s for the headers and for the whole request, checked every second.
const TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 10_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 1_000 };

await start({
  env: process.env,
  readTextFile: (path) => readFile(path, 'utf8'),
  listen({ host, port }, fetch) {
    return new Promise((resolve, reject) => {
      const server = serve(
        {
          hostname: host,
          port,
          serverOptions: TIMEOUTS,
          fetch: (request, env) => fetch(request, { clientAddress: env.incoming.socket.remoteAddress }),
        },
        ({ address, port }: AddressInfo) =>
          resolve({
            url: listeningUrl({ hostname: address, port }),
            stop: () =>
              new Promise((closed) => {
                // close() waits for keep-alive connections; sweep them as each falls idle.
                const http = server as import('node:http').Server;
                const sweep = setInterval(() => http.closeIdleConnections(), 50);
                http.close(() => {
                  clearInterval(sweep);
                  closed();
                });
                http.closeIdleConnections();
              }),
          }),
      );
      server.once('error', reject);
    });
  },
  onSignal: (signal, listener) => process.on(signal, listener),
  exit: (code) => process.exit(code),
});
