/**
 * @module What every baseline serves: the service's own bytes, captured by bench/run.ts into
 * BENCH_BODIES_DIR, answered with no logic beyond picking the file by path.
 *
 * FLOOR_PATH answers the product bytes with the headers the service sent for them (its contract:
 * CORS, Link, cache validators, rate-limit fields), the rate-limit fields changing per request as
 * the service's do: what no logic at all costs once the contract's headers are sent.
 * NOT_FOUND_FLOOR_PATH does the same for the 404 problem and its headers.
 */
export const FLOOR_PATH = '/floor/product';
export const NOT_FOUND_FLOOR_PATH = '/floor/nope';

export interface Bodies {
  product: Uint8Array<ArrayBuffer>;
  openapi: Uint8Array<ArrayBuffer>;
  openapiGzip: Uint8Array<ArrayBuffer>;
  notFound: Uint8Array<ArrayBuffer>;
}

export const FILES = {
  product: 'product.json',
  openapi: 'openapi.json',
  openapiGzip: 'openapi.json.gz',
  notFound: 'not-found.json',
  /** The service's product answer headers, as a JSON record (no Date or connection headers). */
  productHeaders: 'product.headers.json',
  /** The same for the 404 problem. */
  notFoundHeaders: 'not-found.headers.json',
} as const;

/** A floor answer, made for each request with fresh rate-limit values. */
export interface Floors {
  product: () => Response;
  notFound: () => Response;
}

/**
 * A floor answer of the fetch runtimes, built the fastest way found for each: on Bun from a
 * `Headers` made once and copied per request (about 20 % faster than a record there); on Deno a
 * `Response` made once and cloned per request (about 40 % more requests a second than from a
 * record, the same bytes on the wire); fresh rate-limit values set on each.
 */
export function floorAnswer(
  captured: Record<string, string>,
  body: Uint8Array<ArrayBuffer>,
  status: number,
  runtime: 'bun' | 'deno',
): () => Response {
  const fresh = freshRateLimit(captured);
  const set = (headers: Headers) => {
    const values = fresh();
    for (const name in values) headers.set(name, values[name]!);
  };
  if (runtime === 'deno') {
    const template = new Response(body, { status, headers: captured });
    return () => {
      const response = template.clone();
      set(response.headers);
      return response;
    };
  }
  const template = new Headers(captured);
  return () => {
    const headers = new Headers(template);
    set(headers);
    return new Response(body, { status, headers });
  };
}

/**
 * The floor's headers as a record (Node), the captured record copied key by key (not `{ ...record }`
 * plus more keys, which is slow on Node 20); fresh rate-limit values on each call.
 */
export function floorHeaders(captured: Record<string, string>): () => Record<string, string> {
  const names = Object.keys(captured);
  const fresh = freshRateLimit(captured);
  return () => {
    const headers: Record<string, string> = {};
    for (const name of names) headers[name] = captured[name]!;
    return Object.assign(headers, fresh());
  };
}

/** The two rate-limit fields that change per request, named as captured, counting down as the service's do. */
function freshRateLimit(captured: Record<string, string>): () => Record<string, string> {
  let remaining = 1_000_000_000;
  const names = Object.keys(captured);
  const find = (name: string) => names.find((n) => n.toLowerCase() === name.toLowerCase()) ?? name;
  const rateLimit = find('RateLimit');
  const remainingName = find('X-RateLimit-Remaining');
  const reset = captured[rateLimit]?.replace(/.*;t=(\d+).*/, '$1') ?? '60';
  return () => {
    remaining--;
    return { [rateLimit]: `"default";r=${remaining};t=${reset}`, [remainingName]: String(remaining) };
  };
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The status and headers of each baseline answer (the same Content-Type/-Encoding as the service's). */
export function answers(bodies: Bodies) {
  return {
    product: { status: 200, body: bodies.product, headers: { 'Content-Type': JSON_TYPE } },
    openapi: { status: 200, body: bodies.openapi, headers: { 'Content-Type': JSON_TYPE, Vary: 'Accept-Encoding' } },
    openapiGzip: {
      status: 200,
      body: bodies.openapiGzip,
      headers: { 'Content-Type': JSON_TYPE, Vary: 'Accept-Encoding', 'Content-Encoding': 'gzip' },
    },
    notFound: { status: 404, body: bodies.notFound, headers: { 'Content-Type': 'application/problem+json; charset=utf-8' } },
  };
}

/** The fetch function of the Bun and Deno baselines: pick the answer by path, nothing else. */
export function baselineFetch(bodies: Bodies, floors: Floors): (request: Request) => Response {
  const a = answers(bodies);
  return (request) => {
    const url = request.url;
    const path = url.slice(url.indexOf('/', 8));
    if (path === FLOOR_PATH) return floors.product();
    if (path === NOT_FOUND_FLOOR_PATH) return floors.notFound();
    const pick =
      path === '/api/v1/product'
        ? a.product
        : path === '/openapi.json'
          ? request.headers.get('accept-encoding')?.includes('gzip')
            ? a.openapiGzip
            : a.openapi
          : a.notFound;
    return new Response(pick.body, { status: pick.status, headers: pick.headers });
  };
}
