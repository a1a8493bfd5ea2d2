/**
 * @module Everything served that does not depend on the request, built once from the settings and
 * the facts: each document serialised, hashed, compressed and given its fixed headers, the health
 * answer, and the MCP endpoint. Building it again from new facts swaps all of them together.
 */
import pkg from '../package.json' with { type: 'json' };
import { CORS_HEADERS } from './cors.ts';
import type { DeprecationNotice } from './deprecation.ts';
import { buildApiCatalog } from './discovery/catalog.ts';
import { buildLlmsText } from './discovery/llms.ts';
import { buildServerCard } from './discovery/server-card.ts';
import { mergeHeaders, type HeaderRecord } from './headers.ts';
import { prepare, type PreparedRepresentation } from './http.ts';
import { lazyMcpEndpoint } from './mcp/endpoint.ts';
import type { McpOutcome } from './mcp/gate.ts';
import { describeResources } from './mcp/resources.ts';
import { MCP_PROTOCOL_VERSIONS } from './mcp/versions.ts';
import { TOOL_NAMES } from './mcp/tools.ts';
import { buildOpenApi } from './openapi.ts';
import { problemType } from './problems.ts';
import {
  API_CATALOG_PATH,
  API_PATH,
  contentTypeOf,
  HEALTH_PATH,
  isV1Path,
  LLMS_PATH,
  MCP_PATH,
  OPENAPI_PATH,
  pathsOf,
  problemPath,
  PRODUCT_PATH,
  ROUTES,
  SERVER_CARD_PATH,
  type Route,
} from './routes.ts';
import type { ApiIndex, Health, Product, ProblemCode } from './schemas.ts';

export interface Settings {
  /** `{base}`, without a trailing slash. */
  base: string;
  deprecation?: DeprecationNotice;
  /** The rate-limit fields that are the same on every answer (the policy and the quota). */
  rateLimitPolicy: HeaderRecord;
  storeKind: Health['rateLimitStore'];
  redisMode?: Health['redisMode'];
  mcp: { allowedOrigins: string[]; maxBodyBytes: number };
}

export interface Surface {
  facts: Product;
  /** The GET/HEAD answer of every document path, by exact path. */
  documents: Map<string, PreparedRepresentation>;
  /** The health answer; `failure` says why the service is degraded. */
  health(failure: string | undefined): Promise<PreparedRepresentation>;
  /** Serves an MCP POST; `headers` are the ones the answer carries besides the SDK's. */
  mcp(request: Request, headers: HeaderRecord): Promise<McpOutcome>;
}

interface Context {
  settings: Settings;
  facts: Product;
  name: string;
}

/** The builder of each document route's body, by route path. */
const DOCUMENTS: Record<string, (context: Context, params: Record<string, string>) => unknown> = {
  [API_PATH]: apiIndex,
  [PRODUCT_PATH]: ({ facts }) => facts,
  [OPENAPI_PATH]: ({ settings, name }) =>
    buildOpenApi({
      base: settings.base,
      title: name,
      version: pkg.version,
      deprecated: Boolean(settings.deprecation),
      mcpMaxBodyBytes: settings.mcp.maxBodyBytes,
      mcpProtocolVersions: MCP_PROTOCOL_VERSIONS,
      toolNames: TOOL_NAMES,
    }),
  [problemPath('{code}')]: ({ settings }, { code }) => problemType(settings.base, code as ProblemCode),
  [API_CATALOG_PATH]: ({ settings, facts }) => buildApiCatalog(settings.base, facts),
  [LLMS_PATH]: ({ settings, facts }) => buildLlmsText(settings.base, facts, TOOL_NAMES),
  [SERVER_CARD_PATH]: ({ settings, facts }) =>
    buildServerCard(settings.base, facts, { version: pkg.version, protocolVersions: MCP_PROTOCOL_VERSIONS }),
};

function apiIndex({ settings: { base, deprecation }, facts, name }: Context): ApiIndex {
  return {
    name,
    apiVersion: 'v1',
    description: facts.product.summary,
    links: {
      self: `${base}${API_PATH}`,
      health: `${base}${HEALTH_PATH}`,
      product: `${base}${PRODUCT_PATH}`,
      openapi: `${base}${OPENAPI_PATH}`,
      problems: `${base}${problemPath('api_route_not_found')}`,
      apiCatalog: `${base}${API_CATALOG_PATH}`,
      llmsTxt: `${base}${LLMS_PATH}`,
      mcpServerCard: `${base}${SERVER_CARD_PATH}`,
    },
    mcp: { url: `${base}${MCP_PATH}`, transport: 'streamable-http', protocolVersions: MCP_PROTOCOL_VERSIONS, tools: TOOL_NAMES },
    ...(deprecation ? { deprecation: deprecation.index } : {}),
  };
}

/** The headers every answer on `path` carries besides the rate-limit fields. */
export function fixedHeaders({ base, deprecation, rateLimitPolicy }: Settings): (path: string) => HeaderRecord {
  const serviceDesc = `<${base}${OPENAPI_PATH}>; rel="service-desc"`;
  const headersWith = (links: string[], extra: HeaderRecord = {}) =>
    mergeHeaders({ 'X-Content-Type-Options': 'nosniff' }, CORS_HEADERS, rateLimitPolicy, extra, { Link: links.join(', ') });
  const v1Links = deprecation ? [serviceDesc, deprecation.successorLink] : [serviceDesc];
  const v1Extra = deprecation?.headers ?? {};
  const catalog = `<${base}${API_CATALOG_PATH}>; rel="api-catalog"`;
  const everyResponse = headersWith([serviceDesc]);
  const v1Response = headersWith(v1Links, v1Extra);
  // RFC 9727 section 3: the API and the catalog itself link to the catalog.
  const byPath = new Map([
    [API_PATH, headersWith([...v1Links, catalog], v1Extra)],
    [API_CATALOG_PATH, headersWith([serviceDesc, catalog])],
  ]);
  return (path) => byPath.get(path) ?? (isV1Path(path) ? v1Response : everyResponse);
}

export async function buildSurface(settings: Settings, facts: Product): Promise<Surface> {
  const context: Context = { settings, facts, name: `${facts.product.name} public API` };
  const headersFor = fixedHeaders(settings);
  const build = (route: Route, path: string, value: unknown) =>
    prepare(value, { contentType: contentTypeOf(route), cacheControl: route.cacheControl!, fixed: headersFor(path) });

  const documents = new Map<string, PreparedRepresentation>();
  for (const route of ROUTES.filter((route) => route.answer === 'document')) {
    for (const { path, params } of pathsOf(route)) documents.set(path, await build(route, path, DOCUMENTS[route.path]!(context, params)));
  }

  const resources = describeResources(settings.base, facts, (path) => documents.get(path)!.identity.body);

  const healthRoute = ROUTES.find((route) => route.answer === 'health')!;
  const served = { reviewedOn: facts.product.reviewedOn, loadedAt: new Date().toISOString() };
  const healthOf = (health: Omit<Health, 'facts'>) => build(healthRoute, healthRoute.path, { ...health, facts: served });
  const store = { rateLimitStore: settings.storeKind, redisMode: settings.redisMode };
  const healthy = await healthOf({ status: 'ok', ...store });
  // Probes repeat while a store is down: the answer is built once per reason, not per probe.
  let degraded: { reason: string; answer: Promise<PreparedRepresentation> } | undefined;
  const degradedFor = (reason: string) =>
    degraded?.reason === reason
      ? degraded.answer
      : (degraded = { reason, answer: healthOf({ status: 'degraded', ...store, reason }) }).answer;

  return {
    facts,
    documents,
    health: (failure) => (failure ? degradedFor(failure) : Promise.resolve(healthy)),
    mcp: lazyMcpEndpoint(facts, { name: context.name, version: pkg.version }, resources, settings.mcp),
  };
}
