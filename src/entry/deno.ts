/** @module Serves the handler with Deno.serve. */
import { listeningUrl } from '../startup/listen.ts';
import { start } from '../startup/start.ts';

await start({
  env: Deno.env.toObject(),
  readTextFile: (path) => Deno.readTextFile(path),
  listen({ host, port }, fetch) {
    const { promise, resolve } = Promise.withResolvers<string>();
    const server = Deno.serve({ hostname: host, port, onListen: (addr) => resolve(listeningUrl(addr as Deno.NetAddr)) }, (request, info) =>
      fetch(request, { clientAddress: (info.remoteAddr as Deno.NetAddr).hostname }),
    );
    return promise.then((url) => ({ url, stop: () => server.shutdown() }));
  },
  onSignal: (signal, listener) => Deno.addSignalListener(signal, listener),
  exit: (code) => Deno.exit(code),
});
