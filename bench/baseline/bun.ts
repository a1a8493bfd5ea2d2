/** @module Baseline on Bun: bare Bun.serve serving the captured bytes (see bodies.ts). */
import { baselineFetch, FILES, floorHeadersObject } from './bodies.ts';

const dir = process.env.BENCH_BODIES_DIR!;
const read = async (name: string) => new Uint8Array(await Bun.file(`${dir}/${name}`).arrayBuffer());
const bodies = {
  product: await read(FILES.product),
  openapi: await read(FILES.openapi),
  openapiGzip: await read(FILES.openapiGzip),
  notFound: await read(FILES.notFound),
};
const floors = {
  product: floorHeadersObject(await Bun.file(`${dir}/${FILES.productHeaders}`).json()),
  notFound: floorHeadersObject(await Bun.file(`${dir}/${FILES.notFoundHeaders}`).json()),
};

const server = Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT ?? 0), fetch: baselineFetch(bodies, floors) });
console.log(`Baseline listening on ${server.url.origin}`);
process.on('SIGTERM', () => process.exit(0));
