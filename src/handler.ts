/**
 * @module The service as one web-standard fetch handler: a request's whole path, top to bottom.
 *
 *   OPTIONS -> preflight (not counted)
 *   otherwise -> count against the rate limit -> 429 / 503 when the policy says so
 *             -> route: a precomputed representation (ETag/304, gzip, HEAD) or the MCP endpoint
 *             -> unknown path 404, known path with another method 405
 *   every response carries the rate-limit, CORS, nosniff and Link headers (and deprecation under /api/v1).
 */
import { Router } from 'itty-router';
import pkg from '../package.json' with { type: 'json' };
import type { Options } from './config.ts';
import { deprecationNotice } from './deprecation.ts';
import { EXPOSED_HEADERS, representation, respond, type Headers, type Representation } from './http.ts';
import { createMcpEndpoint, MCP_PROTOCOL_VERSIONS, TOOL_NAMES } from './mcp.ts';
import { createMcpGate, originAllowed } from './mcp-http.ts';
import { buildOpenApi } from './openapi.ts';
import { problemResponse, problemType } from './problems.ts';
import { clientKey, Limiter, policyHeader, rateLimitHeaders, type RateLimitState } from './ratelimit/limiter.ts';
import { MemoryStore } from './ratelimit/memory.ts';
import type { CounterStore } from './ratelimit/store.ts';
import { MCP_PATH, OPENAPI_PATH, PUBLIC_CACHE } from './routes.ts';
import { PROBLEM_CODES, type ApiIndex, type Health, type Product } from './schemas.ts';

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

const PREFLIGHT_MAX_AGE = '86400';

const HEALTH_PATH = '/api/v1/health';
/** The path of a request URL, which the Request constructor has already normalised, without a URL object. */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const end = url.slice(start).search(/[?#]/);
  return end < 0 ? url.slice(start) : url.slice(start, start + end);
}
const isV1 = (pathname: string) => pathname === '/api/v1' || pathname.startsWith('/api/v1/');
/** itty-router patterns also match trailing slashes; the contract serves its paths exactly. */
const isExact = (pathname: string) => !pathname.endsWith('/');

export async function createHandler(options: HandlerOptions): Promise<Handler> {
  const base = options.publicBaseUrl.replace(/\/+$/, '');
  const { facts } = options;
  const quota = options.rateLimit?.quota ?? 120;
  const windowSeconds = options.rateLimit?.windowSeconds ?? 60;
  const store =
    options.rateLimit?.store ??
    (options.rateLimit?.redisUrl
      ? (await import('./ratelimit/redis.ts')).createRedisStore(options.rateLimit.redisUrl)
      : new MemoryStore());
  const limiter = new Limiter({ quota, windowSeconds, fail: options.rateLimit?.fail ?? 'open', store });
  const policy = policyHeader(quota, windowSeconds);
  const trustProxyHops = options.trustProxyHops ?? 0;
  const deprecation = deprecationNotice(base, options.deprecation);
  const serviceName = `${facts.product.name} public API`;

  const allowedOrigins = options.mcp?.allowedOrigins ?? [new URL(base).origin];
  const maxBodyBytes = options.mcp?.maxBodyBytes ?? 65536;
  const serveMcp = createMcpGate(createMcpEndpoint(facts, { name: serviceName, version: pkg.version }), {
    allowedOrigins,
    maxBodyBytes,
  });

  // Everything that does not depend on the request is serialised, hashed and compressed here, once.
  const serviceDesc = `<${base}${OPENAPI_PATH}>; rel="service-desc"`;
  const everyResponse: Headers = {
    'X-Content-Type-Options': 'nosniff',
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
    Link: serviceDesc,
  };
  const v1Response: Headers = deprecation
    ? { ...everyResponse, ...deprecation.headers, Link: `${serviceDesc}, ${deprecation.successorLink}` }
    : everyResponse;

  const index: ApiIndex = {
    name: serviceName,
    apiVersion: 'v1',
    description: facts.product.summary,
    links: {
      self: `${base}/api/v1`,
      health: `${base}/api/v1/health`,
      product: `${base}/api/v1/product`,
      openapi: `${base}${OPENAPI_PATH}`,
      problems: `${base}/problems/api_route_not_found`,
    },
    mcp: { url: `${base}${MCP_PATH}`, transport: 'streamable-http', protocolVersions: MCP_PROTOCOL_VERSIONS, tools: [...TOOL_NAMES] },
    ...(deprecation ? { deprecation: deprecation.index } : {}),
  };
  const openapi = buildOpenApi({
    base,
    title: serviceName,
    version: pkg.version,
    deprecated: Boolean(deprecation),
    mcpMaxBodyBytes: maxBodyBytes,
    mcpProtocolVersions: MCP_PROTOCOL_VERSIONS,
    toolNames: TOOL_NAMES,
  });
  const reps = {
    index: await representation(index, { cacheControl: PUBLIC_CACHE }),
    product: await representation(facts, { cacheControl: PUBLIC_CACHE }),
    openapi: await representation(openapi, { cacheControl: PUBLIC_CACHE }),
    healthOk: await healthRepresentation({ status: 'ok', rateLimitStore: store.kind }),
  };

  async function healthRepresentation(health: Health): Promise<Representation> {
    return representation(health, { cacheControl: 'no-store' });
  }

  async function health(): Promise<Representation> {
    const { failure } = limiter.health();
    return failure ? healthRepresentation({ status: 'degraded', rateLimitStore: store.kind, reason: failure }) : reps.healthOk;
  }

  type Route = (request: Request) => Representation | Response | Promise<Representation | Response>;
  const router = Router<Request, [Headers]>();
  // Static answers are also kept by exact path: the hot GETs skip the router's URL parsing and scan.
  const staticAnswers = new Map<string, Representation>();
  const serve = (path: string, route: Route | Representation) => {
    if (!(route instanceof Function)) staticAnswers.set(path, route);
    const answer = route instanceof Function ? route : () => route;
    router.get(path, answer);
    router.head(path, answer);
  };
  serve('/api/v1', reps.index);
  serve(HEALTH_PATH, health);
  serve('/api/v1/product', reps.product);
  serve(OPENAPI_PATH, reps.openapi);
  for (const code of PROBLEM_CODES) {
    serve(`/problems/${code}`, await representation(problemType(base, code), { cacheControl: 'public, max-age=86400' }));
  }
  router.post(MCP_PATH, async (request: Request, headers: Headers) => {
    const outcome = await serveMcp(request);
    if ('refused' in outcome) return problemResponse(request, base, outcome.refused, headers);
    for (const name in headers) outcome.response.headers.set(name, headers[name]!);
    return outcome.response;
  });

  /** RFC 9110 section 10.2.1: the methods a known path accepts, or undefined for an unknown path. */
  function allowedMethods(pathname: string): string | undefined {
    if (!isExact(pathname)) return undefined;
    const methods = router.routes.filter(([, pattern]) => pattern.test(pathname)).map(([method]) => method);
    return methods.length > 0 ? [...new Set(methods), 'OPTIONS'].join(', ') : undefined;
  }

  function limitHeaders(pathname: string, state: RateLimitState): Headers {
    return { ...(isV1(pathname) ? v1Response : everyResponse), ...rateLimitHeaders(policy, state) };
  }

  async function preflight(request: Request, pathname: string, key: string): Promise<Response> {
    const headers = limitHeaders(pathname, await limiter.peek(key));
    const allow = allowedMethods(pathname);
    if (!allow) return problemResponse(request, base, 'api_route_not_found', headers);
    if (pathname === MCP_PATH && !originAllowed(request.headers.get('origin'), allowedOrigins)) {
      return problemResponse(request, base, 'origin_not_allowed', headers);
    }
    const requested = request.headers.get('access-control-request-headers');
    return new Response(null, {
      status: 204,
      headers: {
        ...headers,
        Allow: allow,
        'Access-Control-Allow-Methods': allow,
        ...(requested ? { 'Access-Control-Allow-Headers': requested } : {}),
        'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
        Vary: 'Access-Control-Request-Headers',
        'Cache-Control': 'no-store',
      },
    });
  }

  async function answer(request: Request, info: RequestInfo): Promise<Response> {
    let headers = everyResponse;
    try {
      const pathname = pathOf(request.url);
      const key = clientKey(request, info.clientAddress, trustProxyHops);
      if (request.method === 'OPTIONS') return await preflight(request, pathname, key);

      const state = await limiter.hit(key);
      headers = limitHeaders(pathname, state);
      // Failing closed, only health answers (200, degraded), whatever the fallback count says.
      if (state.unavailable && pathname !== HEALTH_PATH) {
        return problemResponse(request, base, 'service_unavailable', { ...headers, 'Retry-After': String(state.resetSeconds) });
      }
      if (state.exceeded && !state.unavailable) {
        return problemResponse(request, base, 'rate_limited', { ...headers, 'Retry-After': String(state.resetSeconds) }, {
          'violated-policies': ['default'],
        });
      }

      const routed: Representation | Response | undefined =
        (request.method === 'GET' || request.method === 'HEAD' ? staticAnswers.get(pathname) : undefined) ??
        (isExact(pathname) ? await router.fetch(request, headers) : undefined);
      if (routed instanceof Response) return routed;
      if (routed) return respond(request, routed, headers);
      const allow = allowedMethods(pathname);
      return allow
        ? problemResponse(request, base, 'method_not_allowed', { ...headers, Allow: allow })
        : problemResponse(request, base, 'api_route_not_found', headers);
    } catch (error) {
      const id = crypto.randomUUID();
      console.error(`request ${id} failed: ${request.method}`, error);
      return problemResponse(request, base, 'internal_error', headers, { instance: `urn:uuid:${id}` });
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
