/**
 * @module Everything served that does not depend on the request, built once from the settings and
 * the facts: for every exact path its route, its header sets, its document serialised, hashed and
 * compressed, and its problem answers; the health answer; the MCP endpoint. Building it again from
 * new facts swaps all of them together.
 */
import pkg from '../package.json' with { type: 'json' };
import type { DeprecationNotice } from './deprecation.ts';
import { pathHeaders, type HeaderSettings, type PathHeaders } from './headers.ts';
import { prepareDocument, type HeaderAssembly, type Prepared } from './http.ts';
import { createMcpHttpEndpoint, type McpHttpEndpoint, type McpOptions } from './mcp/endpoint.ts';
import { describeResources } from './mcp/resources.ts';
import { prepareProblem } from './problems.ts';
import { API_PATH, contentTypeOf, isV1Path, pathsOf, type BuildContext, type Route } from './route.ts';
import { ROUTES } from './routes.ts';
import type { Health, ProblemCode, Product } from './schemas.ts';

export interface Settings extends HeaderSettings {
  deprecation?: DeprecationNotice;
  storeKind: Health['rateLimitStore'];
  mcp: McpOptions;
  /** How response headers are put together (the runtime entry's choice). */
  assembly: HeaderAssembly;
}

/** What is served on one exact path; a path the service does not serve has no route. */
export interface Target {
  route?: Route;
  headers: PathHeaders;
  /** The GET and HEAD answer of a document route. */
  document?: Prepared;
  /** The answer of a problem without per-request members, prepared on first use. */
  problem(code: ProblemCode): Prepared;
}

export interface Surface {
  facts: Product;
  /** The target of a request path: its own, or the not-found target of the area it falls in. */
  targetOf(path: string): Target;
  /** The health answer; `failure` says why the service is degraded. */
  health(failure: string | undefined): Promise<Prepared>;
  mcp: McpHttpEndpoint;
}

function target(settings: Settings, headers: PathHeaders, route?: Route, document?: Prepared): Target {
  const problems = new Map<ProblemCode, Prepared>();
  return {
    route,
    headers,
    document,
    problem(code) {
      let prepared = problems.get(code);
      if (!prepared) problems.set(code, (prepared = prepareProblem(settings.base, code, headers.problem(code), { assembly: settings.assembly })));
      return prepared;
    },
  };
}

export async function buildSurface(settings: Settings, facts: Product): Promise<Surface> {
  const context: BuildContext = {
    base: settings.base,
    facts,
    name: `${facts.product.name} public API`,
    version: pkg.version,
    deprecation: settings.deprecation,
    mcp: settings.mcp,
  };
  const targets = new Map<string, Target>();
  for (const route of ROUTES) {
    for (const { path, params } of pathsOf(route)) {
      const headers = pathHeaders(settings, path, route);
      const document =
        typeof route.answer === 'function'
          ? await prepareDocument(route.answer(context, params), { contentType: contentTypeOf(route), headers: headers.document, assembly: settings.assembly })
          : undefined;
      targets.set(path, target(settings, headers, route, document));
    }
  }
  // Unknown paths under /api/v1 carry its deprecation notice; the others do not.
  const unknownV1 = target(settings, pathHeaders(settings, `${API_PATH}/unknown`));
  const unknown = target(settings, pathHeaders(settings, '/unknown'));

  const bodyOf = (path: string) => targets.get(path)!.document!.identity.body;
  const resources = describeResources(settings.base, facts, bodyOf);

  const healthRoute = ROUTES.find((route) => route.answer === 'health')!;
  const healthHeaders = targets.get(healthRoute.path)!.headers.document;
  const served = { reviewedOn: facts.product.reviewedOn, loadedAt: new Date().toISOString() };
  const healthOf = (health: Omit<Health, 'facts' | 'version'>) =>
    prepareDocument({ ...health, version: pkg.version, facts: served }, { contentType: contentTypeOf(healthRoute), headers: healthHeaders, assembly: settings.assembly });
  const healthy = await healthOf({ status: 'ok', rateLimitStore: settings.storeKind });
  // Probes repeat while a store is down: the answer is built once per reason, not per probe.
  let degraded: { reason: string; answer: Promise<Prepared> } | undefined;
  const degradedFor = (reason: string) =>
    degraded?.reason === reason
      ? degraded.answer
      : (degraded = { reason, answer: healthOf({ status: 'degraded', rateLimitStore: settings.storeKind, reason }) }).answer;

  return {
    facts,
    targetOf: (path) => targets.get(path) ?? (isV1Path(path) ? unknownV1 : unknown),
    health: (failure) => (failure ? degradedFor(failure) : Promise.resolve(healthy)),
    mcp: createMcpHttpEndpoint(facts, { name: context.name, version: pkg.version }, resources, settings.mcp),
  };
}
