/**
 * A bigger Bun app that mounts the discovery API next to its own pages.
 * Run: node_modules/.bin/bun examples/bun-app.ts   (PORT=3000 by default)
 */
import { checkFacts, createHandler, isServedPath, sampleFacts } from '../src/index.ts';

const port = Number(process.env.PORT ?? 3000);

const server = Bun.serve({
  port,
  hostname: '127.0.0.1',
  fetch: (request, server) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/') return new Response('Studio home page, served by the host app.\n');
    if (isServedPath(pathname)) return discovery(request, { clientAddress: server.requestIP(request)?.address });
    return new Response('Not found\n', { status: 404 });
  },
});
const discovery = await createHandler({ publicBaseUrl: server.url.origin, facts: checkFacts('sample', sampleFacts) });
console.log(`Serving the host app with the discovery API on ${server.url.origin}`);
