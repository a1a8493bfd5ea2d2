/** @module Baseline on Bun: bare Bun.serve serving the captured bytes (see bodies.ts). */
import { baselineFetch, contractAnswer, FILES, floorAnswer, READS } from './bodies.ts';

const dir = process.env.BENCH_BODIES_DIR!;
const read = async (name: string) => new Uint8Array(await Bun.file(`${dir}/${name}`).arrayBuffer());
const bodies = {
  product: await read(FILES.product),
  openapi: await read(FILES.openapi),
  openapiGzip: await read(FILES.openapiGzip),
  notFound: await read(FILES.notFound),
};
const floors = {
  product: floorAnswer(await Bun.file(`${dir}/${FILES.productHeaders}`).json(), bodies.product, 200, 'bun'),
  notFound: floorAnswer(await Bun.file(`${dir}/${FILES.notFoundHeaders}`).json(), bodies.notFound, 404, 'bun'),
  contract: contractAnswer(await Bun.file(`${dir}/${FILES.productHeaders}`).json(), bodies.product, 200, READS.product, 'bun'),
  notFoundContract: contractAnswer(await Bun.file(`${dir}/${FILES.notFoundHeaders}`).json(), bodies.notFound, 404, READS.notFound, 'bun'),
};

const fetch = baselineFetch(bodies, floors);
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
  fetch: (request, server) => fetch(request, () => server.requestIP(request)?.address),
});
console.log(`Baseline listening on ${server.url.origin}`);
process.on('SIGTERM', () => process.exit(0));
