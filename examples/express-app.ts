/**
 * An Express app that serves the discovery API next to its own routes.
 * Run: node --import tsx examples/express-app.ts   (PORT=3000 by default)
 */
import express from 'express';
import { checkFacts, createHandler, isServedPath, sampleFacts, toNodeListener } from 'product-discovery-api';

const port = Number(process.env.PORT ?? 3000);
const publicBaseUrl = `http://127.0.0.1:${port}`;
const discovery = toNodeListener(await createHandler({ publicBaseUrl, facts: checkFacts('sample', sampleFacts) }));

const app = express();
app.get('/', (_req, res) => res.send('Studio home page, served by the host app.\n'));
// Before any body parser: the handler reads the MCP request body itself.
app.use((req, res, next) => (isServedPath(req.path) ? discovery(req, res) : next()));
app.get('/api/v2/things', (_req, res) => res.json({ things: [] }));

app.listen(port, '127.0.0.1', () => console.log(`Serving the host app with the discovery API on ${publicBaseUrl}`));
