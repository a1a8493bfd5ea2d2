/** @module Baseline on Bun: bare Bun.serve serving the captured bytes (see bodies.ts). */
import { answers, FILES, FLOOR_PATH, floorHeaders } from './bodies.ts';

const dir = process.env.BENCH_BODIES_DIR!;
const read = async (name: string) => new Uint8Array(await Bun.file(`${dir}/${name}`).arrayBuffer());
const a = answers({
  product: await read(FILES.product),
  openapi: await read(FILES.openapi),
  openapiGzip: await read(FILES.openapiGzip),
  notFound: await read(FILES.notFound),
});

const floor = floorHeaders(await Bun.file(`${dir}/${FILES.productHeaders}`).json());

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
  fetch(request) {
    const url = request.url;
    const path = url.slice(url.indexOf('/', 8));
    if (path === FLOOR_PATH) return new Response(a.product.body, { headers: floor() });
    const pick =
      path === '/api/v1/product'
        ? a.product
        : path === '/openapi.json'
          ? (request.headers.get('accept-encoding')?.includes('gzip') ? a.openapiGzip : a.openapi)
          : a.notFound;
    return new Response(pick.body, { status: pick.status, headers: pick.headers });
  },
});
console.log(`Baseline listening on ${server.url.origin}`);
process.on('SIGTERM', () => process.exit(0));
