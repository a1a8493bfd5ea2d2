/**
 * @module The service as one web-standard fetch handler: a request's whole path, top to bottom.
 *
 *   count the request against the rate limit (CORS preflights and health are not counted)
 *   -> 429 / 503 when the policy refuses it
 *   -> GET/HEAD of a document: its prepared answer (ETag/304, gzip, HEAD)
 *   -> anything else through the router: health, MCP, preflight, 405 with Allow, 404
 *   every answer carries the rate-limit, CORS, nosniff and Link headers (and the deprecation under /api/v1);
 *   every error answer carries `Cache-Control: no-store`; with an access log, one line per request.
 */
import { DEFAULTS, withDefaults, type Options } from './config.ts';
import { originAllowed, preflight } from './cors.ts';
import { deprecationNotice } from './deprecation.ts';
import { createDispatcher } from './dispatch.ts';
import { mergeHeaders, type HeaderRecord } from './headers.ts';
import { respond } from './http.ts';
import { errorField, jsonLinesLogger, type Logger } from './log.ts';
import { problemResponder } from './problems.ts';
import { clientKey } from './ratelimit/client.ts';
import { policyFields, stateFields } from './ratelimit/fields.ts';
import { Limiter, type RateLimitState } from './ratelimit/limiter.ts';
import { MemoryStore } from './ratelimit/memory.ts';
import { redisTargetOf } from './ratelimit/redis-target.ts';
import type { CounterStore } from './ratelimit/store.ts';
import { allowOf, pathsOf, ROUTES } from './routes.ts';
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
  /** Where log lines go (default: JSON lines on stdout and stderr). */
  logger?: Logger;
  /** One `request` log line per request (time, request id, method, path, status, duration, client key). */
  accessLog?: boolean;
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
  /**
   * Serves new, already checked facts (see `checkFacts`): REST, MCP and ETags switch together once
   * everything is built; requests in between are answered from the old facts.
   */
  reload(facts: Product): Promise<void>;
}

/** The path of a request URL, which the Request constructor has already normalised, without a URL object. */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const query = url.indexOf('?', start);
  const fragment = url.indexOf('#', start);
  const end = query < 0 ? fragment : fragment < 0 ? query : Math.min(query, fragment);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}

/** Paths whose GET and HEAD are not counted (health): the route table says which. */
const UNCOUNTED = new Set(ROUTES.filter((route) => route.counted === false).flatMap((route) => pathsOf(route).map(({ path }) => path)));

const countedRequest = (method: string, path: string) =>
  method !== 'OPTIONS' && !((method === 'GET' || method === 'HEAD') && UNCOUNTED.has(path));

/** What the access-log line learns from answering: the id a 500 problem carries, if there was one. */
interface Answered {
  requestId?: string;
}

/** Failing closed, the store may be back at once: a retry in a few seconds, not at the window's end. */
const FAIL_CLOSED_RETRY_SECONDS = 2;

function refusalOf(state: RateLimitState): { code: ProblemCode; retryAfter: number } | undefined {
  if (state.unavailable) return { code: 'service_unavailable', retryAfter: FAIL_CLOSED_RETRY_SECONDS };
  return state.exceeded ? { code: 'rate_limited', retryAfter: state.resetSeconds } : undefined;
}

export async function createHandler(options: HandlerOptions): Promise<Handler> {
  const base = options.publicBaseUrl.replace(/\/+$/, '');
  const log = options.logger ?? jsonLinesLogger();
  const rateLimit = withDefaults(DEFAULTS.rateLimit, options.rateLimit);
  const { quota, windowSeconds, fail, ipv6PrefixBits, store: given } = rateLimit;
  const target = redisTargetOf(rateLimit);
  const store: CounterStore = given ?? (target ? (await import('./ratelimit/redis.ts')).createRedisStore(target) : new MemoryStore());
  const limiter = new Limiter({ quota, windowSeconds, fail, store, logger: log });
  const trustProxyHops = options.trustProxyHops ?? DEFAULTS.trustProxyHops;
  const mcp = withDefaults({ allowedOrigins: [new URL(base).origin], ...DEFAULTS.mcp }, options.mcp);
  const settings = {
    base,
    deprecation: deprecationNotice(base, options.deprecation),
    rateLimitPolicy: policyFields(quota, windowSeconds),
    storeKind: store.kind,
    redisMode: store.redisMode,
    mcp,
  };
  // Swapped whole on reload; each request reads it once, so it sees either the old facts or the new.
  let surface: Surface = await buildSurface(settings, options.facts);
  const headersFor = fixedHeaders(settings);
  const problem = problemResponder(base);
  const dispatch = createDispatcher({
    health: async (request, _fixed, limits) => respond(request, await surface.health(limiter.health().failure), limits),
    mcp: async (request, fixed, limits) => {
      const outcome = await surface.mcp(request, mergeHeaders(fixed, limits));
      return 'refused' in outcome ? problem(request, outcome.refused, fixed, limits) : outcome.response;
    },
    preflight: (request, fixed, limits, route) =>
      route.answer === 'mcp' && !originAllowed(request.headers.get('origin'), mcp.allowedOrigins)
        ? problem(request, 'origin_not_allowed', fixed, limits)
        : preflight(request, allowOf(route), mergeHeaders(fixed, limits)),
    methodNotAllowed: (request, fixed, limits, allow) => problem(request, 'method_not_allowed', fixed, mergeHeaders(limits, { Allow: allow })),
    notFound: (request, fixed, limits) => problem(request, 'api_route_not_found', fixed, limits),
  });

  async function answer(request: Request, path: string, key: string, answered?: Answered): Promise<Response> {
    let limits: HeaderRecord = {};
    try {
      const counted = countedRequest(request.method, path);
      const counting = counted ? limiter.hit(key) : limiter.peek(key);
      // Awaited only when the store is remote: the memory store's answer costs no turn of the event loop.
      const state = counting instanceof Promise ? await counting : counting;
      limits = stateFields(state);
      const refusal = counted ? refusalOf(state) : undefined;
      if (refusal) {
        const perRequest = mergeHeaders(limits, { 'Retry-After': String(refusal.retryAfter) });
        return problem(request, refusal.code, headersFor(path), perRequest, refusal.code === 'rate_limited' ? { 'violated-policies': ['default'] } : undefined);
      }
      const document = (request.method === 'GET' || request.method === 'HEAD') && surface.documents.get(path);
      if (document) return respond(request, document, limits);
      return await dispatch(request, path, headersFor(path), limits);
    } catch (error) {
      const id = crypto.randomUUID();
      if (answered) answered.requestId = id;
      log({ level: 'error', event: 'request_failed', requestId: id, method: request.method, path, error: errorField(error) });
      return problem(request, 'internal_error', headersFor(path), limits, { instance: `urn:uuid:${id}` });
    }
  }

  let inFlight = 0;
  let drained: (() => void) | undefined;
  const handle = async (request: Request, info: RequestInfo = {}): Promise<Response> => {
    inFlight++;
    const path = pathOf(request.url);
    const key = clientKey(request, info.clientAddress, trustProxyHops, ipv6PrefixBits);
    try {
      if (!options.accessLog) return await answer(request, path, key);
      const time = new Date().toISOString();
      const started = performance.now();
      const answered: Answered = {};
      const response = await answer(request, path, key, answered);
      const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      log({ level: 'info', event: 'request', time, requestId: (answered.requestId ??= crypto.randomUUID()), method: request.method, path, status: response.status, durationMs, client: key });
      return response;
    } finally {
      if (--inFlight === 0) drained?.();
    }
  };
  return Object.assign(handle, {
    idle: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve))),
    close: () => limiter.close(),
    async reload(facts: Product) {
      surface = await buildSurface(settings, facts);
      log({ level: 'info', event: 'facts_reloaded', reviewedOn: facts.product.reviewedOn });
    },
  });
}
