/**
 * A Bun app that serves the discovery API next to its own routes.
 * Run: bun examples/bun-app.ts   (PORT=3000 by default)
 */
import { checkFacts, createHandler, isServedPath, sampleFacts } from 'product-discovery-api';

const port = Number(process.env.PORT ?? 3000);
const publicBaseUrl = `http://127.0.0.1:${port}`;
const discovery = await createHandler({ publicBaseUrl, facts: checkFacts('sample', sampleFacts) });

Bun.serve({
  hostname: '127.0.0.1',
  port,
  fetch(request, server) {
    const { pathname } = new URL(request.url);
    if (pathname === '/') return new Response('Studio home page, served by the host app.\n');
    if (isServedPath(pathname)) return discovery(request, { clientAddress: server.requestIP(request)?.address });
    if (pathname === '/api/v2/things') return Response.json({ things: [] });
    return new Response('Not found\n', { status: 404 });
  },
});
console.log(`Serving the host app with the discovery API on ${publicBaseUrl}`);
