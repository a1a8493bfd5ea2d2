/**
 * @module The route table: every path the service serves, declared once. Dispatch, `Allow`, the
 * cache policy and the OpenAPI document all read it.
 */
import type * as v from 'valibot';
import { ApiCatalog, API_CATALOG_TYPE, LlmsText, SERVER_CARD_TYPE, ServerCard } from './discovery/schemas.ts';
import { ApiIndex, Health, JsonRpcResponse, OpenApiDocument, Product, PROBLEM_CODES, ProblemType } from './schemas.ts';

export type Method = 'GET' | 'HEAD' | 'POST';

export interface Route {
  /** OpenAPI path template. */
  path: string;
  methods: readonly Method[];
  /** How it is answered: a document built once from the facts, or per request. */
  answer: 'document' | 'health' | 'mcp';
  operationId: string;
  summary: string;
  description: string;
  tag: 'v1' | 'service' | 'mcp' | 'discovery';
  /** The success body; its `v.title` names the OpenAPI component. */
  body: v.GenericSchema;
  /** The media type, without parameters (the OpenAPI content key). */
  mediaType: string;
  /** The exact Content-Type of a success answer, when it is not `{mediaType}; charset=utf-8`. */
  contentType?: string;
  /** Cache-Control of a success answer (the documents'; MCP answers carry the SDK's). */
  cacheControl?: string;
  /** Path parameters and the values each takes; every combination is an exact path. */
  params?: Record<string, readonly string[]>;
  /**
   * `false`: GET and HEAD are not counted against the rate limit (they still carry its headers), so
   * a load balancer probing from one address never sees a 429 or a fail-closed 503.
   */
  counted?: false;
}

export const API_PATH = '/api/v1';
export const HEALTH_PATH = `${API_PATH}/health`;
export const PRODUCT_PATH = `${API_PATH}/product`;
export const OPENAPI_PATH = '/openapi.json';
export const MCP_PATH = '/mcp';
export const API_CATALOG_PATH = '/.well-known/api-catalog';
export const LLMS_PATH = '/llms.txt';
export const SERVER_CARD_PATH = `${MCP_PATH}/server-card`;
export const problemPath = (code: string) => `/problems/${code}`;

/** Whether a path is under the versioned API (and so carries its deprecation notice). */
export const isV1Path = (path: string) => path === API_PATH || path.startsWith(`${API_PATH}/`);

/** How long the documents built from the facts may be cached, by anyone (MCP's cache hints say the same). */
export const PUBLIC_MAX_AGE_SECONDS = 60;
export const PUBLIC_CACHE = `public, max-age=${PUBLIC_MAX_AGE_SECONDS}`;
const JSON_TYPE = 'application/json';
const GET: readonly Method[] = ['GET', 'HEAD'];

export const ROUTES: Route[] = [
  {
    path: API_PATH,
    methods: GET,
    answer: 'document',
    operationId: 'getApiIndex',
    summary: 'API index',
    description: 'Name, version and links to every endpoint, the OpenAPI document and the MCP endpoint with its tool names.',
    tag: 'v1',
    body: ApiIndex,
    mediaType: JSON_TYPE,
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: HEALTH_PATH,
    methods: GET,
    answer: 'health',
    operationId: 'getHealth',
    summary: 'Service health',
    description: 'Always 200 while the service answers; `status` is "degraded" with a reason when a dependency is down. Never cached.',
    tag: 'v1',
    body: Health,
    mediaType: JSON_TYPE,
    cacheControl: 'no-store',
    counted: false,
  },
  {
    path: PRODUCT_PATH,
    methods: GET,
    answer: 'document',
    operationId: 'getProduct',
    summary: 'Reviewed product facts',
    description: 'The reviewed product facts with their review date, the canonical public resources and the safe start options.',
    tag: 'v1',
    body: Product,
    mediaType: JSON_TYPE,
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: OPENAPI_PATH,
    methods: GET,
    answer: 'document',
    operationId: 'getOpenApi',
    summary: 'OpenAPI document',
    description: 'This document: the authoritative contract. Sent gzip-coded when the client accepts it.',
    tag: 'service',
    body: OpenApiDocument,
    mediaType: JSON_TYPE,
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: problemPath('{code}'),
    methods: GET,
    answer: 'document',
    operationId: 'getProblemType',
    summary: 'Problem type description',
    description: `What a problem type means and how to resolve it; every problem \`type\` URI resolves here. Codes: ${PROBLEM_CODES.join(', ')}.`,
    tag: 'service',
    body: ProblemType,
    mediaType: JSON_TYPE,
    cacheControl: 'public, max-age=86400',
    params: { code: PROBLEM_CODES },
  },
  {
    path: API_CATALOG_PATH,
    methods: GET,
    answer: 'document',
    operationId: 'getApiCatalog',
    summary: 'API catalog',
    description:
      'RFC 9727 API catalog: a Linkset (RFC 9264) whose one context, the API, links to its OpenAPI document ' +
      '(service-desc), its documentation (service-doc), its health (status) and llms.txt (service-meta).',
    tag: 'discovery',
    body: ApiCatalog,
    mediaType: 'application/linkset+json',
    contentType: API_CATALOG_TYPE,
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: LLMS_PATH,
    methods: GET,
    answer: 'document',
    operationId: 'getLlmsText',
    summary: 'llms.txt',
    description: 'The reviewed facts as a short Markdown page for language models (llmstxt.org format), with links to the API, the resources and the start options.',
    tag: 'discovery',
    body: LlmsText,
    mediaType: 'text/markdown',
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: SERVER_CARD_PATH,
    methods: GET,
    answer: 'document',
    operationId: 'getMcpServerCard',
    summary: 'MCP server card',
    description: 'The MCP Server Card (experimental draft, SEP-2127) of the /mcp endpoint: identity, transport and protocol revisions.',
    tag: 'discovery',
    body: ServerCard,
    mediaType: SERVER_CARD_TYPE,
    contentType: SERVER_CARD_TYPE,
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: MCP_PATH,
    methods: ['POST'],
    answer: 'mcp',
    operationId: 'postMcp',
    summary: 'MCP Streamable HTTP endpoint',
    description: 'Model Context Protocol over Streamable HTTP, stateless, JSON responses.',
    tag: 'mcp',
    body: JsonRpcResponse,
    mediaType: JSON_TYPE,
  },
];

/** The exact paths a route serves: its template filled with every combination of parameter values. */
export function pathsOf(route: Route): { path: string; params: Record<string, string> }[] {
  let paths = [{ path: route.path, params: {} as Record<string, string> }];
  for (const [name, values] of Object.entries(route.params ?? {})) {
    paths = paths.flatMap(({ path, params }) => values.map((value) => ({ path: path.replace(`{${name}}`, value), params: { ...params, [name]: value } })));
  }
  return paths;
}

/** The Content-Type of a route's success answers. */
export const contentTypeOf = (route: Route) => route.contentType ?? `${route.mediaType}; charset=utf-8`;

/** RFC 9110 section 10.2.1: the methods a route's paths accept. */
export const allowOf = (route: Route) => [...route.methods, 'OPTIONS'].join(', ');

const SERVED_PATHS = new Set(ROUTES.flatMap((route) => pathsOf(route).map(({ path }) => path)));

/**
 * Whether the handler serves `pathname` (a URL's path, without its query): exactly the paths of the
 * route table and no others, so a host app hands these to the handler and keeps the rest for itself.
 */
export const isServedPath = (pathname: string): boolean => SERVED_PATHS.has(pathname);
