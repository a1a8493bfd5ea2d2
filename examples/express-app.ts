/**
 * An Express app that serves the discovery API next to its own routes. Express speaks node:http,
 * the handler speaks fetch: @hono/node-server's getRequestListener converts between the two.
 * Run: node --import tsx examples/express-app.ts   (PORT=3000 by default)
 */
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import { checkFacts, createHandler, isServedPath, sampleFacts } from '../src/index.ts';

const port = Number(process.env.PORT ?? 3000);
const publicBaseUrl = `http://127.0.0.1:${port}`;
const discovery = await createHandler({ publicBaseUrl, facts: checkFacts('sample', sampleFacts) });
const serveDiscovery = getRequestListener((request, { incoming }) => discovery(request, { clientAddress: incoming.socket.remoteAddress }));

const app = express();
// Before any body parser: the handler reads the MCP request body itself.
// The host app's own root first: the discovery API serves a root of its own, for a host of its own.
app.get('/', (_req, res) => res.send('Studio home page, served by the host app.\n'));
app.use((req, res, next) => (isServedPath(req.path) ? serveDiscovery(req, res) : next()));

app.listen(port, '127.0.0.1', () => console.log(`Serving the host app with the discovery API on ${publicBaseUrl}`));
