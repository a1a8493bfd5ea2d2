/** @module Baseline on Node: bare node:http serving the captured bytes (see bodies.ts). */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  answers,
  CONTRACT_FLOOR_PATH,
  contractHeaders,
  FILES,
  FLOOR_PATH,
  floorHeaders,
  NOT_FOUND_CONTRACT_FLOOR_PATH,
  NOT_FOUND_FLOOR_PATH,
  READS,
} from './bodies.ts';

const dir = process.env.BENCH_BODIES_DIR!;
const read = (name: string) => new Uint8Array(readFileSync(`${dir}/${name}`));
const a = answers({
  product: read(FILES.product),
  openapi: read(FILES.openapi),
  openapiGzip: read(FILES.openapiGzip),
  notFound: read(FILES.notFound),
});
// Content-Length precomputed: node:http would otherwise send chunked.
const withLength = (x: { status: number; body: Uint8Array; headers: Record<string, string> }) => ({
  ...x,
  headers: { ...x.headers, 'Content-Length': String(x.body.byteLength) },
});
const product = withLength(a.product);
const openapi = withLength(a.openapi);
const openapiGzip = withLength(a.openapiGzip);
const notFound = withLength(a.notFound);
const captured = (name: string) => JSON.parse(readFileSync(`${dir}/${name}`, 'utf8'));
const floors = { product: floorHeaders(captured(FILES.productHeaders)), notFound: floorHeaders(captured(FILES.notFoundHeaders)) };
const contract = {
  product: contractHeaders(captured(FILES.productHeaders), READS.product),
  notFound: contractHeaders(captured(FILES.notFoundHeaders), READS.notFound),
};

const server = createServer((req, res) => {
  const url = req.url;
  if (url === FLOOR_PATH) {
    res.writeHead(200, floors.product());
    res.end(product.body);
    return;
  }
  if (url === CONTRACT_FLOOR_PATH) {
    res.writeHead(200, contract.product(req.headers, req.socket.remoteAddress));
    res.end(product.body);
    return;
  }
  if (url === NOT_FOUND_CONTRACT_FLOOR_PATH) {
    res.writeHead(404, contract.notFound(req.headers, req.socket.remoteAddress));
    res.end(notFound.body);
    return;
  }
  if (url === NOT_FOUND_FLOOR_PATH) {
    res.writeHead(404, floors.notFound());
    res.end(notFound.body);
    return;
  }
  const pick =
    url === '/api/v1/product'
      ? product
      : url === '/openapi.json'
        ? req.headers['accept-encoding']?.includes('gzip')
          ? openapiGzip
          : openapi
        : notFound;
  res.writeHead(pick.status, pick.headers);
  res.end(pick.body);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`Baseline listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => process.exit(0));
