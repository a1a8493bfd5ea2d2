/**
 * A Hono app that mounts the discovery API next to its own routes, served on Node.
 * Run: node --import tsx examples/hono-app.ts   (PORT=3000 by default)
 */
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { checkFacts, createHandler, isServedPath, sampleFacts } from '../src/index.ts';

const port = Number(process.env.PORT ?? 3000);
const publicBaseUrl = `http://127.0.0.1:${port}`;
const discovery = await createHandler({ publicBaseUrl, facts: checkFacts('sample', sampleFacts) });

const app = new Hono();
// The host app's own root first: the discovery API serves a root of its own, for a host of its own.
app.get('/', (c) => c.text('Studio home page, served by the host app.\n'));
app.use((c, next) => (isServedPath(c.req.path) ? discovery(c.req.raw, { clientAddress: getConnInfo(c).remote.address }) : next()));

serve({ fetch: app.fetch, hostname: '127.0.0.1', port }, () => console.log(`Serving the host app with the discovery API on ${publicBaseUrl}`));
