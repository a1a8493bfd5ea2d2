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
import {
  EXPOSED_HEADERS,
  mergeHeaders,
  prepare,
  representation,
  respond,
  type Headers,
  type PreparedRepresentation,
  type Representation,
} from './http.ts';
import { createMcpEndpoint, MCP_PROTOCOL_VERSIONS, TOOL_NAMES } from './mcp.ts';
import { createMcpGate, originAllowed } from './mcp-http.ts';
import { buildOpenApi } from './openapi.ts';
import { problemResponder, problemType } from './problems.ts';
import { clientKey, Limiter, policyHeader, rateLimitHeaders } from './ratelimit/limiter.ts';
import { MemoryStore } from './ratelimit/memory.ts';
import type { CounterStore } from './ratelimit/store.ts';
import { API_PATH, HEALTH_PATH, isV1Path, MCP_PATH, OPENAPI_PATH, PRODUCT_PATH, PUBLIC_CACHE } from './routes.ts';
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

/** The path of a request URL, which the Request constructor has already normalised, without a URL object. */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const end = url.slice(start).search(/[?#]/);
  return end < 0 ? url.slice(start) : url.slice(start, start + end);
}

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
    ? mergeHeaders(everyResponse, deprecation.headers, { Link: `${serviceDesc}, ${deprecation.successorLink}` })
    : everyResponse;

  const index: ApiIndex = {
    name: serviceName,
    apiVersion: 'v1',
    description: facts.product.summary,
    links: {
      self: `${base}${API_PATH}`,
      health: `${base}${HEALTH_PATH}`,
      product: `${base}${PRODUCT_PATH}`,
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
  const problem = problemResponder(base);

  async function healthRepresentation(health: Health): Promise<PreparedRepresentation> {
    return prepare(await representation(health, { cacheControl: 'no-store' }), v1Response);
  }

  async function health(): Promise<PreparedRepresentation> {
    const { failure } = limiter.health();
    return failure ? healthRepresentation({ status: 'degraded', rateLimitStore: store.kind, reason: failure }) : reps.healthOk;
  }

  type Answer = PreparedRepresentation | Response;
  const router = Router<Request, [Headers]>();
  // Every route is an exact path, so static answers are also kept in a map by path: the hot GETs
  // skip the router's URL parsing and pattern scan.
  const staticAnswers = new Map<string, PreparedRepresentation>();
  const serve = (path: string, route: Representation | ((request: Request) => Promise<Answer>)) => {
    if (route instanceof Function) {
      router.get(path, route);
      router.head(path, route);
      return;
    }
    const prepared = prepare(route, isV1Path(path) ? v1Response : everyResponse);
    staticAnswers.set(path, prepared);
    router.get(path, () => prepared);
    router.head(path, () => prepared);
  };
  serve(API_PATH, reps.index);
  serve(HEALTH_PATH, health);
  serve(PRODUCT_PATH, reps.product);
  serve(OPENAPI_PATH, reps.openapi);
  for (const code of PROBLEM_CODES) {
    serve(`/problems/${code}`, await representation(problemType(base, code), { cacheControl: 'public, max-age=86400' }));
  }
  router.post(MCP_PATH, async (request: Request, headers: Headers) => {
    const outcome = await serveMcp(request);
    if ('refused' in outcome) return problem(request, outcome.refused, headers);
    for (const name in headers) outcome.response.headers.set(name, headers[name]!);
    return outcome.response;
  });

  /** RFC 9110 section 10.2.1: the methods each known path accepts, from the router's own table. */
  const allowByPath = new Map<string, string>();
  for (const [method, , , path] of router.routes as [string, RegExp, unknown, string][]) {
    allowByPath.set(path, allowByPath.has(path) ? `${allowByPath.get(path)}, ${method}` : method);
  }
  for (const [path, methods] of allowByPath) allowByPath.set(path, `${methods}, OPTIONS`);

  async function preflight(request: Request, pathname: string, key: string, common: Headers): Promise<Response> {
    const headers = mergeHeaders(common, rateLimitHeaders(policy, await limiter.peek(key)));
    const allow = allowByPath.get(pathname);
    if (!allow) return problem(request, 'api_route_not_found', headers);
    if (pathname === MCP_PATH && !originAllowed(request.headers.get('origin'), allowedOrigins)) {
      return problem(request, 'origin_not_allowed', headers);
    }
    const requested = request.headers.get('access-control-request-headers');
    headers.Allow = allow;
    headers['Access-Control-Allow-Methods'] = allow;
    if (requested) headers['Access-Control-Allow-Headers'] = requested;
    headers['Access-Control-Max-Age'] = PREFLIGHT_MAX_AGE;
    headers.Vary = 'Access-Control-Request-Headers';
    headers['Cache-Control'] = 'no-store';
    return new Response(null, { status: 204, headers });
  }

  async function answer(request: Request, info: RequestInfo): Promise<Response> {
    let common = everyResponse;
    let limits: Headers = {};
    try {
      const pathname = pathOf(request.url);
      common = isV1Path(pathname) ? v1Response : everyResponse;
      const key = clientKey(request, info.clientAddress, trustProxyHops);
      if (request.method === 'OPTIONS') return await preflight(request, pathname, key, common);

      const state = await limiter.hit(key);
      limits = rateLimitHeaders(policy, state);
      const ok = !state.unavailable && !state.exceeded;
      const prepared = ok && (request.method === 'GET' || request.method === 'HEAD') && staticAnswers.get(pathname);
      if (prepared) return respond(request, prepared, limits);

      const headers = mergeHeaders(common, limits);
      // Failing closed, only health answers (200, degraded), whatever the fallback count says.
      if (state.unavailable && pathname !== HEALTH_PATH) {
        headers['Retry-After'] = String(state.resetSeconds);
        return problem(request, 'service_unavailable', headers);
      }
      if (state.exceeded && !state.unavailable) {
        headers['Retry-After'] = String(state.resetSeconds);
        return problem(request, 'rate_limited', headers, { 'violated-policies': ['default'] });
      }

      const allow = allowByPath.get(pathname);
      if (!allow) return problem(request, 'api_route_not_found', headers);
      const routed: Answer | undefined = await router.fetch(request, headers);
      if (routed instanceof Response) return routed;
      if (routed) return respond(request, routed, limits);
      headers.Allow = allow;
      return problem(request, 'method_not_allowed', headers);
    } catch (error) {
      const id = crypto.randomUUID();
      console.error(`request ${id} failed: ${request.method}`, error);
      return problem(request, 'internal_error', mergeHeaders(common, limits), { instance: `urn:uuid:${id}` });
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
