/** @module Baseline on Deno: bare Deno.serve serving the captured bytes (see bodies.ts). */
import { baselineFetch, contractAnswer, FILES, floorAnswer, READS } from './bodies.ts';

const dir = Deno.env.get('BENCH_BODIES_DIR')!;
const read = (name: string) => Deno.readFileSync(`${dir}/${name}`);
const bodies = {
  product: read(FILES.product),
  openapi: read(FILES.openapi),
  openapiGzip: read(FILES.openapiGzip),
  notFound: read(FILES.notFound),
};
const captured = (name: string) => JSON.parse(Deno.readTextFileSync(`${dir}/${name}`));
const floors = {
  product: floorAnswer(captured(FILES.productHeaders), bodies.product, 200, 'deno'),
  notFound: floorAnswer(captured(FILES.notFoundHeaders), bodies.notFound, 404, 'deno'),
  contract: contractAnswer(captured(FILES.productHeaders), bodies.product, 200, READS.product, 'deno'),
  notFoundContract: contractAnswer(captured(FILES.notFoundHeaders), bodies.notFound, 404, READS.notFound, 'deno'),
};
const fetch = baselineFetch(bodies, floors);

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 0),
    onListen: ({ port }) => console.log(`Baseline listening on http://127.0.0.1:${port}`),
  },
  (request, info) => fetch(request, () => (info.remoteAddr as Deno.NetAddr).hostname),
);
Deno.addSignalListener('SIGTERM', () => Deno.exit(0));
