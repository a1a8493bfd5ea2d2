/**
 * A Hono app on Node that serves the discovery API next to its own routes (the app depends on
 * hono and @hono/node-server itself, as every Hono app on Node does).
 * Run: node --import tsx examples/hono-app.ts   (PORT=3000 by default)
 */
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { checkFacts, createHandler, isServedPath, sampleFacts } from 'product-discovery-api';

const port = Number(process.env.PORT ?? 3000);
const publicBaseUrl = `http://127.0.0.1:${port}`;
const discovery = await createHandler({ publicBaseUrl, facts: checkFacts('sample', sampleFacts) });

const app = new Hono();
app.get('/', (c) => c.text('Studio home page, served by the host app.\n'));
app.use((c, next) => (isServedPath(c.req.path) ? discovery(c.req.raw, { clientAddress: getConnInfo(c).remote.address }) : next()));
app.get('/api/v2/things', (c) => c.json({ things: [] }));

serve({ fetch: app.fetch, hostname: '127.0.0.1', port }, () =>
  console.log(`Serving the host app with the discovery API on ${publicBaseUrl}`),
);
