/** @module Serves the handler with Bun.serve. */
import { start } from '../startup/start.ts';

// Not awaited at the top: the start-up bundle is CommonJS (scripts/bundle-bun.mjs), which has no top-level await.
void start({
  env: process.env,
  readTextFile: (path) => Bun.file(path).text(),
  listen({ host, port }, fetch) {
    const server = Bun.serve({
      hostname: host,
      port,
      // A getter: each call asks the kernel (getpeername), and behind a proxy the address is not needed.
      fetch: (request, server) =>
        fetch(request, {
          get clientAddress() {
            return server.requestIP(request)?.address;
          },
        }),
    });
    return { url: server.url.origin, stop: () => server.stop() };
  },
  onSignal: (signal, listener) => process.on(signal, listener),
  exit: (code) => process.exit(code),
});
