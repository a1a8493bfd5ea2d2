/**
 * @module The service as one web-standard fetch handler: a request's whole path, top to bottom.
 *
 *   count the request against the rate limit (CORS preflights are not counted)
 *   -> 429 / 503 when the policy refuses it
 *   -> GET/HEAD of a document: its prepared answer (ETag/304, gzip, HEAD)
 *   -> anything else through the router: health, MCP, preflight, 405 with Allow, 404
 *   every answer carries the rate-limit, CORS, nosniff and Link headers (and the deprecation under /api/v1).
 */
import { DEFAULTS, withDefaults, type Options } from './config.ts';
import { originAllowed, preflight } from './cors.ts';
import { deprecationNotice } from './deprecation.ts';
import { createDispatcher } from './dispatch.ts';
import { mergeHeaders, type HeaderRecord } from './headers.ts';
import { respond } from './http.ts';
import { problemResponder } from './problems.ts';
import { clientKey } from './ratelimit/client.ts';
import { policyField, rateLimitFields } from './ratelimit/fields.ts';
import { Limiter, type RateLimitState } from './ratelimit/limiter.ts';
import { MemoryStore } from './ratelimit/memory.ts';
import type { CounterStore } from './ratelimit/store.ts';
import { allowOf, HEALTH_PATH } from './routes.ts';
import { buildSurface, fixedHeaders, type Surface } from './surface.ts';
import type { ProblemCode, Product } from './schemas.ts';

export interface HandlerOptions {
  /** `{base}`: the public base URL used in links, problem types and `servers`. */
  publicBaseUrl: string;
  /** Validated facts (see `parseFacts`). */
  facts: Product;
  rateLimit?: Partial<Options['rateLimit']> & { store?: CounterStore };
  trustProxyHops?: number;
  mcp?: Partial<Options['mcp']>;
  deprecation?: Options['deprecation'];
}

export interface RequestInfo {
  /** The connection's address, as the runtime reports it. */
  clientAddress?: string;
}

export interface Handler {
  (request: Request, info?: RequestInfo): Promise<Response>;
  /** Resolves once no request is in flight (for a graceful stop). */
  idle(): Promise<void>;
  /** Releases the rate-limit store. */
  close(): Promise<void>;
}

/** The path of a request URL, which the Request constructor has already normalised, without a URL object. */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const end = url.slice(start).search(/[?#]/);
  return end < 0 ? url.slice(start) : url.slice(start, start + end);
}

/** Failing closed, only health answers (200, degraded), whatever the fallback count says. */
function refusalOf(state: RateLimitState, path: string): ProblemCode | undefined {
  if (state.unavailable) return path === HEALTH_PATH ? undefined : 'service_unavailable';
  return state.exceeded ? 'rate_limited' : undefined;
}

export async function createHandler(options: HandlerOptions): Promise<Handler> {
  const base = options.publicBaseUrl.replace(/\/+$/, '');
  const { quota, windowSeconds, fail, redisUrl, store: given } = withDefaults(DEFAULTS.rateLimit, options.rateLimit);
  const store = given ?? (redisUrl ? (await import('./ratelimit/redis.ts')).createRedisStore(redisUrl) : new MemoryStore());
  const limiter = new Limiter({ quota, windowSeconds, fail, store });
  const policy = policyField(quota, windowSeconds);
  const trustProxyHops = options.trustProxyHops ?? DEFAULTS.trustProxyHops;
  const mcp = withDefaults({ allowedOrigins: [new URL(base).origin], ...DEFAULTS.mcp }, options.mcp);
  const settings = { base, deprecation: deprecationNotice(base, options.deprecation), storeKind: store.kind, mcp };
  const surface: Surface = await buildSurface(settings, options.facts);
  const headersFor = fixedHeaders(settings);
  const problem = problemResponder(base);
  const dispatch = createDispatcher({
    health: async (request, headers) => respond(request, await surface.health(limiter.health().failure), headers),
    mcp: async (request, headers) => {
      const outcome = await surface.mcp(request);
      if ('refused' in outcome) return problem(request, outcome.refused, headers);
      for (const name in headers) outcome.response.headers.set(name, headers[name]!);
      return outcome.response;
    },
    preflight: (request, headers, route) =>
      route.answer === 'mcp' && !originAllowed(request.headers.get('origin'), mcp.allowedOrigins)
        ? problem(request, 'origin_not_allowed', headers)
        : preflight(request, allowOf(route), headers),
    methodNotAllowed: (request, headers, allow) => problem(request, 'method_not_allowed', mergeHeaders(headers, { Allow: allow })),
    notFound: (request, headers) => problem(request, 'api_route_not_found', headers),
  });

  async function answer(request: Request, info: RequestInfo): Promise<Response> {
    const path = pathOf(request.url);
    let limits: HeaderRecord = {};
    try {
      const key = clientKey(request, info.clientAddress, trustProxyHops);
      const counted = request.method !== 'OPTIONS';
      const state = counted ? await limiter.hit(key) : await limiter.peek(key);
      limits = rateLimitFields(policy, state);
      const refusal = counted && refusalOf(state, path);
      if (refusal) {
        const headers = mergeHeaders(headersFor(path), limits, { 'Retry-After': String(state.resetSeconds) });
        return problem(request, refusal, headers, refusal === 'rate_limited' ? { 'violated-policies': ['default'] } : undefined);
      }
      const document = (request.method === 'GET' || request.method === 'HEAD') && surface.documents.get(path);
      if (document) return respond(request, document, limits);
      return await dispatch(request, path, mergeHeaders(headersFor(path), limits));
    } catch (error) {
      const id = crypto.randomUUID();
      console.error(`request ${id} failed: ${request.method}`, error);
      return problem(request, 'internal_error', mergeHeaders(headersFor(path), limits), { instance: `urn:uuid:${id}` });
    }
  }

  let inFlight = 0;
  let drained: (() => void) | undefined;
  const handle = async (request: Request, info: RequestInfo = {}): Promise<Response> => {
    inFlight++;
    try {
      return await answer(request, info);
    } finally {
      if (--inFlight === 0) drained?.();
    }
  };
  return Object.assign(handle, {
    idle: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve))),
    close: () => limiter.close(),
  });
}
