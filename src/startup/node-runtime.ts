/**
 * @module The Runtime start() gets on Node: node:http, prepared answers written with its own
 * primitives and the rest through @hono/node-server (node-answers.ts), with the process's
 * environment, signals and exit.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeAnswers } from './node-answers.ts';
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
        const listener = nodeAnswers(fetch.answer, (request, incoming) => fetch(request, { clientAddress: incoming.socket.remoteAddress }));
        const server = createServer(NODE_TIMEOUTS, listener);
        server.once('error', reject);
        server.listen(port, hostname, () => {
          const { address, port } = server.address() as AddressInfo;
          resolve({
            url: listeningUrl({ hostname: address, port }),
            stop: () =>
              new Promise((closed) => {
                // close() waits for keep-alive connections; sweep them as each falls idle.
                const sweep = setInterval(() => server.closeIdleConnections(), 50);
                server.close(() => {
                  clearInterval(sweep);
                  closed();
                });
                server.closeIdleConnections();
              }),
          });
        });
      });
    },
    onSignal: (signal, listener) => void host.on(signal, listener),
    exit: (code) => host.exit(code),
  };
}
