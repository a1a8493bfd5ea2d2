/**
 * A bigger Node app (plain node:http) that mounts the discovery API next to its own pages,
 * through @hono/node-server's request listener.
 * Run: node --import tsx examples/node-app.ts
 */
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { checkFacts, createHandler, isServedPath, sampleFacts } from '../src/index.ts';

const port = Number(process.env.PORT ?? 3000);
const publicBaseUrl = `http://127.0.0.1:${port}`;
const discovery = await createHandler({ publicBaseUrl, facts: checkFacts('sample', sampleFacts) });
const serveDiscovery = getRequestListener((request, { incoming }) => discovery(request, { clientAddress: incoming.socket.remoteAddress }));

createServer((req, res) => {
  // req.url carries the query string (/openapi.json?x=1): match on the path alone.
  const { pathname } = new URL(req.url ?? '/', publicBaseUrl);
  if (pathname === '/') return res.end('Studio home page, served by the host app.\n');
  if (isServedPath(pathname)) return serveDiscovery(req, res);
  res.writeHead(404).end('Not found\n');
}).listen(port, '127.0.0.1', () => console.log(`Serving the host app with the discovery API on ${publicBaseUrl}`));
