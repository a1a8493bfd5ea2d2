/** @module The Runtime start() gets on Node: node:http through @hono/node-server, with the process's environment, signals and exit. */
import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { listeningUrl } from './listen.ts';
import type { Runtime } from './start.ts';

// Bun cuts a connection after 10 s without a byte (its default idleTimeout; about 12 s measured for a
// half-sent request). Node's defaults let one hold a half-sent request for 60 s (headers) or 300 s
// (body), checked every 30 s: here 10 s for the headers and for the whole request, checked every second.
export const NODE_TIMEOUTS = {
  headersTimeout: 10_000,
  requestTimeout: 10_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
};

/** The parts of `process` a Runtime uses, so a test can drive the signals and read the exit. */
export type NodeProcess = Pick<NodeJS.Process, 'env'> & {
  on(signal: 'SIGINT' | 'SIGTERM' | 'SIGHUP', listener: () => void): unknown;
  exit(code: number): never;
};

export function nodeRuntime(host: NodeProcess): Runtime {
  return {
    env: host.env,
    readTextFile: (path) => readFile(path, 'utf8'),
    listen({ host: hostname, port }, fetch) {
      return new Promise((resolve, reject) => {
        const server = serve(
          {
            hostname,
            port,
            serverOptions: NODE_TIMEOUTS,
            fetch: (request, env) => fetch(request, { clientAddress: env.incoming.socket.remoteAddress }),
          },
          ({ address, port }: AddressInfo) =>
            resolve({
              url: listeningUrl({ hostname: address, port }),
              stop: () =>
                new Promise((closed) => {
                  // close() waits for keep-alive connections; sweep them as each falls idle.
                  const http = server as Server;
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
    onSignal: (signal, listener) => void host.on(signal, listener),
    exit: (code) => host.exit(code),
  };
}
