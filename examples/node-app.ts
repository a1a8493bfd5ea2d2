/**
 * A node:http app that serves the discovery API next to its own routes.
 * Run: node --import tsx examples/node-app.ts   (PORT=3000 by default)
 */
import { createServer } from 'node:http';
import { checkFacts, createHandler, isServedPath, sampleFacts, toNodeListener } from 'product-discovery-api';

const port = Number(process.env.PORT ?? 3000);
const publicBaseUrl = `http://127.0.0.1:${port}`;
const discovery = toNodeListener(await createHandler({ publicBaseUrl, facts: checkFacts('sample', sampleFacts) }));

createServer((req, res) => {
  // req.url carries the query string (/openapi.json?x=1): match on the path alone.
  const { pathname } = new URL(req.url ?? '/', publicBaseUrl);
  if (pathname === '/') return res.end('Studio home page, served by the host app.\n');
  if (isServedPath(pathname)) return discovery(req, res);
  if (pathname === '/api/v2/things') return res.setHeader('content-type', 'application/json').end('{"things":[]}');
  res.writeHead(404).end('Not found\n');
}).listen(port, '127.0.0.1', () => console.log(`Serving the host app with the discovery API on ${publicBaseUrl}`));
