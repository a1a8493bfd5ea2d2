/** @module Serves the handler on Node through @hono/node-server. */
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { start } from '../start.ts';

await start({
  env: process.env,
  readTextFile: (path) => readFile(path, 'utf8'),
  listen({ host, port }, fetch) {
    return new Promise((resolve, reject) => {
      const server = serve(
        { hostname: host, port, fetch: (request, env) => fetch(request, { clientAddress: env.incoming.socket.remoteAddress }) },
        ({ address, port }: AddressInfo) =>
          resolve({
            url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
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
