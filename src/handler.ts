/**
 * @module The service as one web-standard fetch handler. `createHandler` puts the parts together;
 * `answer` is a request's whole path, top to bottom:
 *
 *   find the path's target in the route table (or the not-found one)
 *   -> a signed request: the agent whose Web Bot Auth signature verifies, for a policy naming agents
 *   -> count the request against the rate limit (CORS preflights and health are not counted)
 *   -> refuse it: 429 over quota, 503 when failing closed
 *   -> answer: 404, preflight, 405 with Allow, or the route's answer (a prepared document, health,
 *      a docs file, MCP)
 *
 * The headers every answer carries were fixed per path at start-up (headers.ts); the rate-limit
 * fields of this request are added to them.
 */
import { withAccessLog, type RequestInfo } from './telemetry/access-log.ts';
import { allowedOrigins } from './http/cors.ts';
import { withDefaults } from './util/defaults.ts';
import { checkDeprecation, deprecationNotice, type Deprecation } from './contract/deprecation.ts';
import { checkBaseUrl } from './contract/base-url.ts';
import { CONTENT_SIGNAL_DEFAULT, checkContentSignal } from './discovery/content-signal.ts';
import { checkSecurityContact } from './discovery/security-txt.ts';
import type { HeaderRecord } from './http/headers.ts';
import { discard, pathOf, respond, unreadBody } from './http/prepared.ts';
import { toResponse, type Answer, type Answered } from './http/answer.ts';
import { InFlight } from './http/in-flight.ts';
import { errorField, jsonLinesLogger, type Logger } from './util/log.ts';
import { MCP_DEFAULTS, type McpOptions } from './mcp/gate.ts';
import { checkRateLimitAnswer } from './mcp/over-quota.ts';
import type { ProblemMembers } from './contract/problems.ts';
import { prepareProblem } from './http/problem.ts';
import { clientTrust } from './ratelimit/client.ts';
import { createRateLimit, type RateLimitOptions, type Verdict } from './ratelimit/index.ts';
import { takes, type Route } from './route.ts';
import { checkRanges } from './util/ranges.ts';
import { andThen, type Maybe } from './util/maybe.ts';
import { buildSurface, type Settings, type Surface, type Target } from './surface.ts';
import { createTelemetry, type Observation, type TelemetryOptions } from './telemetry/index.ts';
import type { ProblemCode } from './contract/schemas.ts';
import type { Product } from './facts/types.ts';

export type { RequestInfo } from './telemetry/access-log.ts';

export interface HandlerOptions {
  /**
   * `{base}`: the public base URL used in links, problem types and `servers`: an absolute http(s) URL
   * with no user information, query, fragment or surrounding white space (refused, as PUBLIC_BASE_URL
   * is); a trailing slash is dropped.
   */
  publicBaseUrl: string;
  /** Validated facts (see `parseFacts`). */
  facts: Product;
  rateLimit?: Partial<RateLimitOptions>;
  /** How many proxies in front append to X-Forwarded-For; at 0 (the default) the header is ignored. */
  trustProxyHops?: number;
  /**
   * A header the platform in front sets to the client's address alone (`Fly-Client-IP`,
   * `CF-Connecting-IP`, `X-Real-IP`): believed instead of the connection's address. Not with `trustProxyHops`.
   */
  clientIpHeader?: string;
  mcp?: Partial<McpOptions>;
  /** Checked as the environment's dates are: both or neither, the sunset at least 90 days after. */
  deprecation?: Deprecation;
  /** Where log lines go (default: JSON lines on stdout and stderr). */
  logger?: Logger;
  /** One `request` log line per request (time, request id, method, path, status, duration, client key). */
  accessLog?: boolean;
  /** Serve the API reference page at /docs and link to it (default true). */
  docsPage?: boolean;
  /** robots.txt's `Content-Signal` line (contentsignals.org; default `search=yes, ai-input=yes`). */
  contentSignal?: string;
  /** A `mailto:` or `https:` URI: serves /.well-known/security.txt (RFC 9116) naming it. */
  securityContact?: string;
  /**
   * OpenTelemetry: your app's `@opentelemetry/api` tracer and meter providers (a server span per
   * request, the rate-limit store and each MCP message as children; request, refusal, store, MCP and
   * facts-age metrics), and `serverTiming` for a `Server-Timing` header. Off by default.
   */
  telemetry?: TelemetryOptions;
}

export interface Handler {
  (request: Request, info?: RequestInfo): Promise<Response>;
  /**
   * The same answer before it becomes a `Response`: one made from prepared parts (status, headers,
   * bytes) stays an `Answer`, which the Node server writes with node:http's own primitives. Given at
   * once, not as a promise, when nothing had to wait (the memory store, a prepared answer).
   */
  answer(request: Request, info?: RequestInfo): Maybe<Answered>;
  /** Resolves once no request is in flight (for a graceful stop); any number of callers may wait. */
  idle(): Promise<void>;
  /** How many requests are in flight now. */
  readonly inFlight: number;
  /** Releases the rate-limit store. */
  close(): Promise<void>;
  /**
   * Serves new, already checked facts (see `checkFacts`): REST, MCP and ETags switch together once
   * everything is built; requests in between are answered from the old facts.
   */
  reload(facts: Product): Promise<void>;
}

/** RFC 9110 section 9.3.7: OPTIONS is the preflight; GET and HEAD of an uncounted route (health) are not counted. */
const counted = (route: Route | undefined, method: string) =>
  method !== 'OPTIONS' && !(route?.counted === false && (method === 'GET' || method === 'HEAD'));

export async function createHandler(options: HandlerOptions): Promise<Handler> {
  // The rules every way in shares, in the words the environment's refusal uses, naming the option.
  const base = checkBaseUrl(options.publicBaseUrl, 'publicBaseUrl');
  const contentSignal =
    options.contentSignal === undefined ? CONTENT_SIGNAL_DEFAULT : checkContentSignal(options.contentSignal, 'contentSignal');
  checkRanges({ ...options.rateLimit, maxBodyBytes: options.mcp?.maxBodyBytes, trustProxyHops: options.trustProxyHops });
  const deprecation = checkDeprecation(options.deprecation);
  const log = options.logger ?? jsonLinesLogger();
  const rateLimit = await createRateLimit(options.rateLimit, clientTrust(options), log, base);
  const mcp = {
    ...withDefaults(MCP_DEFAULTS, options.mcp),
    allowedOrigins: allowedOrigins(options.mcp?.allowedOrigins, base),
    rateLimitAnswer: checkRateLimitAnswer(options.mcp?.rateLimitAnswer),
  };
  const settings: Settings = {
    base,
    deprecation: deprecationNotice(base, deprecation),
    rateLimitPolicy: rateLimit.policyFields,
    storeKind: rateLimit.storeKind,
    redisMode: rateLimit.redisMode,
    mcp,
    docsPage: options.docsPage ?? true,
    contentSignal,
    securityContact: options.securityContact === undefined ? undefined : checkSecurityContact(options.securityContact),
    storeFailure: () => rateLimit.failure(),
  };
  // Swapped whole on reload; each request reads it once, so it sees either the old facts or the new.
  let surface: Surface = await buildSurface(settings, options.facts);
  let facts = options.facts;
  const telemetry = await createTelemetry(options.telemetry ?? {}, {
    storeKind: rateLimit.storeKind,
    reviewedOn: () => facts.product.reviewedOn,
    accessLog: options.accessLog ?? false,
  });

  /**
   * Each step goes on at once when the one before had nothing to wait for: with the memory store, a
   * prepared answer is ready in the turn the request arrived in.
   */
  function answer(request: Request, info: RequestInfo, observed: Observation): Maybe<Answered> {
    const { requestId, malformed } = info;
    const { method } = request;
    const path = pathOf(request.url);
    const target = surface.targetOf(path);
    observed.matched(target.route?.path);
    let limits: HeaderRecord = {};

    const count = (agent: string | undefined): Maybe<Answered> => {
      if (agent) observed.verified(agent);
      const verdict = observed.store(
        () => rateLimit.check(request, info, counted(target.route, method), agent),
        () => rateLimit.failure() !== undefined,
      );
      return andThen(verdict, decide);
    };
    const decide = (verdict: Verdict): Maybe<Answered> => {
      limits = verdict.headers;
      if (verdict.refusal) {
        const { code, policy, retryAfter, members } = verdict.refusal;
        observed.refused(policy, code);
        if (retryAfter !== undefined && method === 'POST' && target.overQuota) {
          return target
            .overQuota(request, { retryAfter, policy }, limits)
            .then((answered) => answered ?? problem(request, target, code, limits, members));
        }
        return problem(request, target, code, limits, members);
      }
      if (malformed?.code === 'bad_request') return problem(request, target, 'bad_request', limits, { detail: malformed.detail });
      const { route } = target;
      if (!route) return problem(request, target, 'api_route_not_found', limits);
      // A method no Request can carry (TRACE, CONNECT), which the entry could not pass on.
      if (malformed) return problem(request, target, malformed.code, limits, { detail: malformed.detail });
      if (method !== 'OPTIONS' && !takes(route, method)) return problem(request, target, 'method_not_allowed', limits);
      return andThen(target.answer(request, limits, observed), (response) => {
        if (!('refused' in response)) return response;
        const members = response.detail === undefined ? undefined : { detail: response.detail };
        return problem(request, target, response.refused, response.close ? { ...limits, Connection: 'close' } : limits, members);
      });
    };
    const failed = (error: unknown): Maybe<Answered> => {
      const id = requestId ?? crypto.randomUUID();
      log({ level: 'error', event: 'request_failed', requestId: id, method, path, error: errorField(error) });
      return problem(request, target, 'internal_error', limits, { instance: `urn:uuid:${id}` });
    };

    try {
      // Waits only for a signed request while a policy names agents; a failed signature is no refusal.
      const signed = rateLimit.agentOf(request);
      const answered = signed ? signed.then(count) : count(undefined);
      return answered instanceof Promise ? answered.catch(failed) : answered;
    } catch (error) {
      return failed(error);
    }
  }

  /**
   * A problem answer: prepared once per path, or for this request when it carries members of its own.
   * What is left of a refused request's body is read first (see `discard`).
   */
  function problem(
    request: Request,
    target: Target,
    code: ProblemCode,
    limits: HeaderRecord,
    members?: ProblemMembers,
  ): Answer | Promise<Answer> {
    const prepared = members ? prepareProblem(base, code, target.headers.problem(code), members) : target.problem(code);
    const body = unreadBody(request);
    return body ? discard(body).then(() => respond(request, prepared, limits)) : respond(request, prepared, limits);
  }

  const serve = options.accessLog ? withAccessLog(answer, log, rateLimit.keyOf) : answer;
  const inFlight = new InFlight();
  const answerOf = (request: Request, info: RequestInfo = {}): Maybe<Answered> => {
    inFlight.start();
    const observed = telemetry.observe(request);
    const ended = (answered: Answered) => {
      inFlight.end();
      return observed.end(answered);
    };
    let answered: Maybe<Answered>;
    try {
      answered = serve(request, info, observed);
    } catch (error) {
      inFlight.end();
      throw error;
    }
    if (!(answered instanceof Promise)) return ended(answered);
    return answered.then(ended, (error: unknown) => {
      inFlight.end();
      throw error;
    });
  };
  // The fetch face: what the Node face writes as it is becomes a Response here.
  const handle = async (request: Request, info?: RequestInfo): Promise<Response> => toResponse(await answerOf(request, info));
  const handler = Object.assign(handle, {
    answer: answerOf,
    idle: () => inFlight.idle(),
    close: () => rateLimit.close(),
    async reload(reloaded: Product) {
      surface = await buildSurface(settings, reloaded, surface);
      facts = reloaded;
      log({ level: 'info', event: 'facts_reloaded', reviewedOn: reloaded.product.reviewedOn });
    },
  });
  return Object.defineProperty(handler, 'inFlight', { get: () => inFlight.count }) as Handler;
}
