/**
 * A bigger Deno app that mounts the discovery API next to its own pages.
 * Run: node_modules/.bin/deno run --allow-net --allow-env --allow-read examples/deno-app.ts
 */
import { checkFacts, createHandler, isServedPath, sampleFacts } from '../src/index.ts';

const port = Number(Deno.env.get('PORT') ?? 3000);
const publicBaseUrl = `http://127.0.0.1:${port}`;
const discovery = await createHandler({ publicBaseUrl, facts: checkFacts('sample', sampleFacts) });

Deno.serve(
  { hostname: '127.0.0.1', port, onListen: ({ port }) => console.log(`Serving the host app with the discovery API on http://127.0.0.1:${port}`) },
  (request, info) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/') return new Response('Studio home page, served by the host app.\n');
    if (isServedPath(pathname)) return discovery(request, { clientAddress: (info.remoteAddr as Deno.NetAddr).hostname });
    return new Response('Not found\n', { status: 404 });
  },
);
