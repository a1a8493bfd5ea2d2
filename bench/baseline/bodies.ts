/**
 * @module What every baseline serves: the service's own bytes, captured by bench/run.ts into
 * BENCH_BODIES_DIR, answered with no logic beyond picking the file by path.
 *
 * FLOOR_PATH answers the product bytes with the headers the service sent for them (its contract:
 * CORS, Link, cache validators, rate-limit fields), the rate-limit fields changing per request as
 * the service's do: what no logic at all costs once the contract's headers are sent.
 * NOT_FOUND_FLOOR_PATH does the same for the 404 problem and its headers. CONTRACT_FLOOR_PATH and
 * NOT_FOUND_CONTRACT_FLOOR_PATH answer as those two after only what the contract asks of every
 * counted request (see `contractAnswer`): the least any implementation of it pays.
 */
export const FLOOR_PATH = '/floor/product';
export const NOT_FOUND_FLOOR_PATH = '/floor/nope';
export const CONTRACT_FLOOR_PATH = '/floor/contract';
export const NOT_FOUND_CONTRACT_FLOOR_PATH = '/floor/contract-nope';

/**
 * The request headers each answer depends on, read by the contract's bare server as the service reads
 * them: the product is negotiated, gzip-coded when asked and conditional; the 404 problem is none of these.
 */
export const READS = { product: ['accept', 'accept-encoding', 'if-none-match'], notFound: [] } as const;

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
  contract: ContractAnswer;
  notFoundContract: ContractAnswer;
}

/** The client's address, read only when asked (a system call on Bun). */
export type ContractAnswer = (request: Request, address: () => string | undefined) => Response;

/**
 * A floor answer of the fetch runtimes, built the fastest way found for each, the way the service
 * builds its own: on Bun a `Response` made from a `Headers` made once (about 20 % faster than from
 * a record there, and about 2.5 % faster than copying that `Headers` first); on Deno a `Response` made
 * once and cloned per request (about 40 % more requests a second than from a record, the same bytes
 * on the wire); fresh rate-limit values set on the response's headers.
 */
export function floorAnswer(
  captured: Record<string, string>,
  body: Uint8Array<ArrayBuffer>,
  status: number,
  runtime: 'bun' | 'deno',
): () => Response {
  const make = responseMaker(captured, body, status, runtime);
  const fresh = freshRateLimit(captured);
  return () => withFields(make(), fresh());
}

/**
 * A floor answer after what the contract asks of every counted request: the client's address read,
 * the request headers the answer depends on read (`READS`), one count for the client in a Map, and
 * the three rate-limit fields set from it.
 */
export function contractAnswer(
  captured: Record<string, string>,
  body: Uint8Array<ArrayBuffer>,
  status: number,
  reads: readonly string[],
  runtime: 'bun' | 'deno',
): ContractAnswer {
  const make = responseMaker(captured, body, status, runtime);
  const counted = countedRateLimit(captured);
  return (request, address) => {
    // Read as the service reads them; this answer does not depend on them.
    for (const name of reads) request.headers.get(name);
    return withFields(make(), counted(address()));
  };
}

function responseMaker(captured: Record<string, string>, body: Uint8Array<ArrayBuffer>, status: number, runtime: 'bun' | 'deno') {
  const made = runtime === 'deno' ? new Response(body, { status, headers: captured }) : new Headers(captured);
  return () => (made instanceof Response ? made.clone() : new Response(body, { status, headers: made }));
}

function withFields(response: Response, values: Record<string, string>): Response {
  for (const name in values) response.headers.set(name, values[name]!);
  return response;
}

/** The floor's headers as a record (Node), fresh rate-limit values on each call. */
export function floorHeaders(captured: Record<string, string>): () => Record<string, string> {
  const copy = recordCopier(captured);
  const fresh = freshRateLimit(captured);
  return () => Object.assign(copy(), fresh());
}

/** As `contractAnswer` does on Bun and Deno, for Node: the request's headers read, one count, the three fields. */
export function contractHeaders(
  captured: Record<string, string>,
  reads: readonly string[],
): (headers: Record<string, string | string[] | undefined>, address: string | undefined) => Record<string, string> {
  const copy = recordCopier(captured);
  const counted = countedRateLimit(captured);
  return (headers, address) => {
    // Read as the service reads them; this answer does not depend on them.
    for (const name of reads) headers[name];
    return Object.assign(copy(), counted(address));
  };
}

/** The captured record copied key by key (not `{ ...record }` plus more keys, which is slow on Node 20). */
function recordCopier(captured: Record<string, string>): () => Record<string, string> {
  const names = Object.keys(captured);
  return () => {
    const record: Record<string, string> = {};
    for (const name of names) record[name] = captured[name]!;
    return record;
  };
}

/** The rate-limit fields' names as captured, and the seconds left in the window as the service sent them. */
function rateLimitFields(captured: Record<string, string>) {
  const names = Object.keys(captured);
  const find = (name: string) => names.find((n) => n.toLowerCase() === name.toLowerCase()) ?? name;
  const rateLimit = find('RateLimit');
  return {
    rateLimit,
    remaining: find('X-RateLimit-Remaining'),
    reset: find('X-RateLimit-Reset'),
    secondsLeft: captured[rateLimit]?.replace(/.*;t=(\d+).*/, '$1') ?? '60',
  };
}

/** The two rate-limit fields that change per request, named as captured, counting down as the service's do. */
function freshRateLimit(captured: Record<string, string>): () => Record<string, string> {
  let remaining = 1_000_000_000;
  const fields = rateLimitFields(captured);
  return () => {
    remaining--;
    return { [fields.rateLimit]: `"default";r=${remaining};t=${fields.secondsLeft}`, [fields.remaining]: String(remaining) };
  };
}

/** The three rate-limit fields of a client counted in a Map, as the service's memory store counts them. */
function countedRateLimit(captured: Record<string, string>): (client: string | undefined) => Record<string, string> {
  const counts = new Map<string, number>();
  const fields = rateLimitFields(captured);
  const resetAt = captured[fields.reset] ?? '0';
  return (client = 'unknown') => {
    const count = (counts.get(client) ?? 0) + 1;
    counts.set(client, count);
    const remaining = String(1_000_000_000 - count);
    return {
      [fields.rateLimit]: `"default";r=${remaining};t=${fields.secondsLeft}`,
      [fields.remaining]: remaining,
      [fields.reset]: resetAt,
    };
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
export function baselineFetch(bodies: Bodies, floors: Floors): (request: Request, address: () => string | undefined) => Response {
  const a = answers(bodies);
  return (request, address) => {
    const url = request.url;
    const path = url.slice(url.indexOf('/', 8));
    if (path === FLOOR_PATH) return floors.product();
    if (path === NOT_FOUND_FLOOR_PATH) return floors.notFound();
    if (path === CONTRACT_FLOOR_PATH) return floors.contract(request, address);
    if (path === NOT_FOUND_CONTRACT_FLOOR_PATH) return floors.notFoundContract(request, address);
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
