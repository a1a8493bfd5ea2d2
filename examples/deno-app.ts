/**
 * A Deno app that serves the discovery API next to its own routes.
 * Run: deno run --allow-net --allow-env --allow-read examples/deno-app.ts   (PORT=3000 by default)
 */
import { checkFacts, createHandler, isServedPath, sampleFacts } from 'product-discovery-api';

const port = Number(Deno.env.get('PORT') ?? 3000);
const publicBaseUrl = `http://127.0.0.1:${port}`;
const discovery = await createHandler({ publicBaseUrl, facts: checkFacts('sample', sampleFacts) });

Deno.serve(
  { hostname: '127.0.0.1', port, onListen: () => console.log(`Serving the host app with the discovery API on ${publicBaseUrl}`) },
  (request, info) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/') return new Response('Studio home page, served by the host app.\n');
    if (isServedPath(pathname)) return discovery(request, { clientAddress: (info.remoteAddr as Deno.NetAddr).hostname });
    if (pathname === '/api/v2/things') return Response.json({ things: [] });
    return new Response('Not found\n', { status: 404 });
  },
);
