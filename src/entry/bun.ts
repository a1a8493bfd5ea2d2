/** @module Serves the handler with Bun.serve. */
import { start } from '../startup/start.ts';

await start({
  env: process.env,
  readTextFile: (path) => Bun.file(path).text(),
  listen({ host, port }, fetch) {
    const server = Bun.serve({
      hostname: host,
      port,
      fetch: (request, server) => fetch(request, { clientAddress: server.requestIP(request)?.address }),
    });
    return { url: server.url.origin, stop: () => server.stop() };
  },
  onSignal: (signal, listener) => process.on(signal, listener),
  exit: (code) => process.exit(code),
});
