/**
 * @module The route table: every path the service serves, declared once with everything about it:
 * its methods, how it is answered (a document's builder, health or the MCP endpoint), its media type,
 * cache policy and links, whether it is counted, and its operation text and schema. Dispatch, `Allow`,
 * the response headers, the OpenAPI document and `isServedPath` all read it.
 */
import { buildApiIndex } from './api-index.ts';
import { buildApiCatalog } from './discovery/catalog.ts';
import { buildLlmsText } from './discovery/llms.ts';
import { ApiCatalog, API_CATALOG_TYPE, LlmsText, SERVER_CARD_TYPE, ServerCard } from './discovery/schemas.ts';
import { buildServerCard } from './discovery/server-card.ts';
import { NO_STORE, PUBLIC_CACHE } from './headers.ts';
import { TOOL_NAMES } from './mcp/tools.ts';
import { MCP_PROTOCOL_VERSIONS } from './mcp/versions.ts';
import { buildOpenApi } from './openapi.ts';
import { problemType } from './problems.ts';
import {
  API_CATALOG_PATH,
  API_PATH,
  HEALTH_PATH,
  LLMS_PATH,
  MCP_PATH,
  OPENAPI_PATH,
  pathsOf,
  problemPath,
  PRODUCT_PATH,
  SERVER_CARD_PATH,
  type Method,
  type Route,
} from './route.ts';
import { ApiIndex, Health, JsonRpcResponse, OpenApiDocument, Product, PROBLEM_CODES, ProblemType, type ProblemCode } from './schemas.ts';

const JSON_TYPE = 'application/json';
const GET: readonly Method[] = ['GET', 'HEAD'];

export const ROUTES: Route[] = [
  {
    path: API_PATH,
    methods: GET,
    answer: buildApiIndex,
    operationId: 'getApiIndex',
    summary: 'API index',
    description: 'Name, version and links to every endpoint, the OpenAPI document and the MCP endpoint with its tool names.',
    tag: 'v1',
    body: ApiIndex,
    mediaType: JSON_TYPE,
    cacheControl: PUBLIC_CACHE,
    // RFC 9727 section 3: the API links to its catalog.
    links: ['api-catalog'],
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
    cacheControl: NO_STORE,
    counted: false,
  },
  {
    path: PRODUCT_PATH,
    methods: GET,
    answer: ({ facts }) => facts,
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
    answer: (context) => buildOpenApi(context, ROUTES),
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
    answer: ({ base }, { code }) => problemType(base, code as ProblemCode),
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
    answer: ({ base, facts }) => buildApiCatalog(base, facts),
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
    links: ['api-catalog'],
  },
  {
    path: LLMS_PATH,
    methods: GET,
    answer: ({ base, facts }) => buildLlmsText(base, facts, TOOL_NAMES),
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
    answer: ({ base, facts, version }) => buildServerCard(base, facts, { version, protocolVersions: MCP_PROTOCOL_VERSIONS }),
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
    refusals: ['origin_not_allowed', 'not_acceptable', 'payload_too_large', 'unsupported_media_type'],
  },
];

const SERVED_PATHS = new Set(ROUTES.flatMap((route) => pathsOf(route).map(({ path }) => path)));

/**
 * Whether the handler serves `pathname` (a URL's path, without its query): exactly the paths of the
 * route table and no others, so a host app hands these to the handler and keeps the rest for itself.
 */
export const isServedPath = (pathname: string): boolean => SERVED_PATHS.has(pathname);
