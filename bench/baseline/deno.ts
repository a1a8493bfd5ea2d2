/** @module Baseline on Deno: bare Deno.serve serving the captured bytes (see bodies.ts). */
import { answers, FILES, FLOOR_PATH, floorHeaders } from './bodies.ts';

const dir = Deno.env.get('BENCH_BODIES_DIR')!;
const read = (name: string) => Deno.readFileSync(`${dir}/${name}`);
const a = answers({ product: read(FILES.product), openapi: read(FILES.openapi), openapiGzip: read(FILES.openapiGzip), notFound: read(FILES.notFound) });

const floor = floorHeaders(JSON.parse(Deno.readTextFileSync(`${dir}/${FILES.productHeaders}`)));

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 0),
    onListen: ({ port }) => console.log(`Baseline listening on http://127.0.0.1:${port}`),
  },
  (request) => {
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
);
Deno.addSignalListener('SIGTERM', () => Deno.exit(0));
