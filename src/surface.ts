/**
 * @module Everything served that does not depend on the request, built once from the settings and
 * the facts: for every exact path its route, its header sets, its document serialised, hashed and
 * compressed, and its problem answers; the health answer; the MCP endpoint. Building it again from
 * new facts swaps all of them together. Each path's part is made on its first request, not at
 * start: a serverless instance answers its first request sooner and builds only what it serves.
 */
import pkg from '../package.json' with { type: 'json' };
import type { DeprecationNotice } from './contract/deprecation.ts';
import { mergeHeaders, pathHeaders, type HeaderSettings, type PathHeaders } from './http/headers.ts';
import { loadDocsAssetBodies } from './docs/assets.ts';
import { skillOf } from './discovery/skill.ts';
import type { HeaderRecord } from './http/headers.ts';
import { negotiated, prepareDocument, prepareFixed, respond, type Prepared } from './http/prepared.ts';
import { preflight } from './http/cors.ts';
import { createMcpHttpEndpoint, type McpMessageHook } from './mcp/endpoint.ts';
import { originRefusal, type McpOptions } from './mcp/gate.ts';
import { answerOverQuota, type Wait } from './mcp/over-quota.ts';
import { describeResources, resourceInfos } from './mcp/resources.ts';
import { TOOL_NAMES, TOOLS } from './mcp/tools.ts';
import { MCP_PROTOCOL_VERSIONS } from './mcp/versions.ts';
import { prepareProblem } from './http/problem.ts';
import { API_PATH, contentTypeOf, isV1Path, pathsOf, type BuildContext, type Builder, type Route } from './route.ts';
import { ROUTES, servedRoutes } from './routes.ts';
import { once } from './util/once.ts';
import type { Health, ProblemCode } from './contract/schemas.ts';
import type { Product } from './facts/schema.ts';
import type { Answered } from './http/answer.ts';
import { andThen } from './util/maybe.ts';

export interface Settings extends HeaderSettings {
  deprecation?: DeprecationNotice;
  storeKind: Health['rateLimitStore'];
  redisMode?: Health['redisMode'];
  mcp: McpOptions;
  /** SECURITY_CONTACT: security.txt is served while it is set. */
  securityContact?: string;
  /** Why the rate-limit store fails now (health then answers degraded), or undefined. */
  storeFailure(): string | undefined;
}

/**
 * The answer on a path to a request the route takes, a CORS preflight (OPTIONS) included: a response
 * (prepared, see http/answer.ts, or made for this request),
 * or the problem refusing the request (MCP's HTTP rules, the origin of a preflight to /mcp).
 */
export type Answer = (request: Request, limits: HeaderRecord, observed: McpMessageHook) => Answered | Refusal | Promise<Answered | Refusal>;

/** A problem refusing the request, with a `detail` of its own where the fixed one does not say enough. */
export interface Refusal {
  refused: ProblemCode;
  detail?: string;
  /** The request's body was not read to its end: the answer carries `Connection: close` (RFC 9112 section 9.6). */
  close?: true;
}

/** What is served on one exact path; a path the service does not serve has no route. */
export interface Target {
  route?: Route;
  headers: PathHeaders;
  /** The GET and HEAD answer of a document route: built on first use, then the same answer itself (no promise). */
  document?: () => Prepared | Promise<Prepared>;
  /** The answer of a problem without per-request members, prepared on first use. */
  problem(code: ProblemCode): Prepared;
  answer: Answer;
  /** The route's own answer to an over-quota POST, where it has one (/mcp with MCP_RATE_LIMIT_ANSWER=jsonrpc); undefined earns the 429 problem. */
  overQuota?(request: Request, wait: Wait, limits: HeaderRecord): Promise<Response | undefined>;
}

export interface Surface {
  /** The target of a request path: its own, or the not-found target of the area it falls in. */
  targetOf(path: string): Target;
  /** The health answer; `failure` says why the service is degraded. */
  health(failure: string | undefined): Prepared | Promise<Prepared>;
  /** A file of the docs page, prepared on the first request for it. */
  asset(path: string): Promise<Prepared>;
}

const notFound: Answer = () => ({ refused: 'api_route_not_found' });

function target(
  settings: Settings,
  headers: PathHeaders,
  route?: Route,
  answer = notFound,
  document?: Target['document'],
  overQuota?: Target['overQuota'],
): Target {
  const problems = new Map<ProblemCode, Prepared>();
  return {
    route,
    headers,
    document,
    answer,
    overQuota,
    problem(code) {
      let prepared = problems.get(code);
      if (!prepared) problems.set(code, (prepared = prepareProblem(settings.base, code, headers.problem(code))));
      return prepared;
    },
  };
}

/** Serves a prepared answer, waiting only while it is being built. */
const serving =
  (prepare: () => Prepared | Promise<Prepared>): Answer =>
  (request, limits) =>
    andThen(prepare(), (prepared) => respond(request, prepared, limits));

/**
 * A document's answer: its default representation, or all of them chosen by Accept when it has
 * others, a redirect (RFC 9110 section 15.4.3: 302 with Location and an empty body) among them.
 */
async function prepareRoute(
  route: Route,
  answer: Builder,
  context: BuildContext,
  params: Record<string, string>,
  headers: PathHeaders,
  settings: Settings,
): Promise<Prepared> {
  const prepare = (value: unknown, contentType: string) => prepareDocument(value, { contentType, headers: headers.document });
  const preferred = await prepare(await answer(context, params), contentTypeOf(route, params));
  const redirects = (route.redirects ?? []).filter((redirect) => settings.docsPage || !redirect.docsPage);
  if (!route.alternates && redirects.length === 0) return preferred;
  // The others are prepared on their first request: a path's first answer prepares only its own.
  const others = new Map<string, () => Prepared | Promise<Prepared>>();
  for (const { mediaType, build } of route.alternates ?? [])
    others.set(
      mediaType,
      once(async () => prepare(await build(context, params), `${mediaType}; charset=utf-8`)),
    );
  for (const { mediaType, path } of redirects) {
    const location = { ...headers.redirect, Location: `${settings.base}${path}` };
    const redirect = prepareFixed(302, '', { contentType: 'text/plain; charset=utf-8', headers: location });
    others.set(mediaType, () => redirect);
  }
  return negotiated(route.mediaType, preferred, others);
}

/**
 * The docs page's files, prepared on the first request for each: they do not depend on the facts,
 * so a reload keeps them, and a process that never serves them never loads their bytes.
 */
function assetAnswers(targetAt: (path: string) => Target | undefined): (path: string) => Promise<Prepared> {
  const prepared = new Map<string, Promise<Prepared>>();
  return (path) => {
    let answer = prepared.get(path);
    if (!answer) {
      const { route, headers } = targetAt(path)!;
      const params = pathsOf(route!).find((each) => each.path === path)!.params;
      answer = loadDocsAssetBodies().then((bodies) =>
        prepareDocument(bodies.get(path)!, { contentType: contentTypeOf(route!, params), headers: headers.document }),
      );
      // A failed load is not kept: the next request tries again.
      answer.catch(() => prepared.delete(path));
      prepared.set(path, answer);
    }
    return answer;
  };
}

/** Builds everything from the facts; `previous` (the surface a reload replaces) hands over what does not depend on them. */
export async function buildSurface(settings: Settings, facts: Product, previous?: Surface): Promise<Surface> {
  const context: BuildContext = {
    base: settings.base,
    facts,
    name: `${facts.product.name} public API`,
    version: pkg.version,
    deprecation: settings.deprecation,
    mcp: { ...settings.mcp, toolNames: TOOL_NAMES, protocolVersions: MCP_PROTOCOL_VERSIONS },
    docsPage: settings.docsPage,
    contentSignal: settings.contentSignal,
    // Made when a document or the MCP server first needs it: the product's first answer does not.
    skill: once(() => skillOf(settings.base, facts, TOOLS)),
    securityContact: settings.securityContact,
    builtAt: new Date(),
  };
  // Each path's target (its header sets) is made when the path is first asked for.
  const targets = new Map<string, () => Target>();
  for (const route of servedRoutes(settings)) {
    for (const { path, params } of pathsOf(route)) {
      targets.set(
        path,
        once(() => {
          const headers = pathHeaders(settings, path, route);
          const build = route.answer;
          const document =
            typeof build === 'function' ? once(() => prepareRoute(route, build, context, params, headers, settings)) : undefined;
          const own = document ? serving(document) : answers[build as Exclude<Route['answer'], Builder>](path, headers);
          // A browser may call a route that refuses other origins (/mcp) only from an allowed origin: its preflight is refused too.
          const checksOrigin = route.refusals?.includes('origin_not_allowed');
          const preflighted: Answer = (request, limits) => {
            const refused = checksOrigin ? originRefusal(request, settings.mcp.allowedOrigins) : undefined;
            return refused ? { refused } : preflight(request, headers.preflight, limits);
          };
          const answer: Answer = (request, limits, observed) =>
            request.method === 'OPTIONS' ? preflighted(request, limits, observed) : own(request, limits, observed);
          // The gateways' way (over-quota.ts): HTTP 200 and a JSON-RPC answer, with the endpoint's and the rate limit's headers.
          const overQuota: Target['overQuota'] =
            build === 'mcp' && settings.mcp.rateLimitAnswer === 'jsonrpc'
              ? (request, wait, limits) => answerOverQuota(request, settings.mcp, wait, mergeHeaders(headers.mcp, limits))
              : undefined;
          return target(settings, headers, route, answer, document, overQuota);
        }),
      );
    }
  }
  const targetAt = (path: string) => targets.get(path)?.();
  // Unknown paths under /api/v1 carry its deprecation notice; the others do not.
  const unknownV1 = once(() => target(settings, pathHeaders(settings, `${API_PATH}/unknown`)));
  const unknown = once(() => target(settings, pathHeaders(settings, '/unknown')));

  // The MCP resources are the bodies REST serves: built with them, when the SDK is first loaded.
  const resources = async () => {
    const paths = resourceInfos(settings.base, facts).map(({ path }) => path);
    const bodies = new Map(
      await Promise.all(paths.map(async (path) => [path, (await targetAt(path)!.document!()).identity.body] as const)),
    );
    return describeResources(settings.base, facts, (path) => bodies.get(path)!);
  };

  const healthRoute = ROUTES.find((route) => route.answer === 'health')!;
  const served = { reviewedOn: facts.product.reviewedOn, loadedAt: new Date().toISOString() };
  const healthOf = (health: Omit<Health, 'facts' | 'version'>) =>
    prepareDocument(
      { ...health, version: pkg.version, facts: served },
      { contentType: contentTypeOf(healthRoute), headers: targetAt(healthRoute.path)!.headers.document },
    );
  const store = { rateLimitStore: settings.storeKind, redisMode: settings.redisMode };
  const healthy = once(() => healthOf({ status: 'ok', ...store }));
  // Probes repeat while a store is down: the answer is built once per reason, not per probe.
  let degraded: { reason: string; answer: Promise<Prepared> } | undefined;
  const degradedFor = (reason: string) =>
    degraded?.reason === reason
      ? degraded.answer
      : (degraded = { reason, answer: healthOf({ status: 'degraded', ...store, reason }) }).answer;

  const health = (failure: string | undefined) => (failure ? degradedFor(failure) : healthy());
  const mcp = createMcpHttpEndpoint(
    facts,
    // Read when the SDK is first loaded, not now.
    {
      name: context.name,
      version: pkg.version,
      get skill() {
        return context.skill();
      },
    },
    resources,
    settings.mcp,
    settings.base,
  );
  const asset = previous?.asset ?? assetAnswers(targetAt);
  /** The answers of the routes that are not documents, by the route's `answer`. */
  const answers: Record<Exclude<Route['answer'], Builder>, (path: string, headers: PathHeaders) => Answer> = {
    health: () => serving(() => health(settings.storeFailure())),
    asset: (path) => serving(() => asset(path)),
    mcp: (_path, headers) => (request, limits, observed) => mcp(request, headers, limits, observed),
  };

  return {
    targetOf: (path) => targetAt(path) ?? (isV1Path(path) ? unknownV1() : unknown()),
    health,
    asset,
  };
}
