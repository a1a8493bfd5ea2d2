/** @module Cold-start reference on Node: the smallest node:http hello world. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((_req, res) => res.end('hello'));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`Baseline listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
