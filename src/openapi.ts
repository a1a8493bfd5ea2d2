/**
 * @module The OpenAPI 3.1 document, built once at start-up from the route table and the valibot
 * schemas (JSON Schema draft 2020-12, the dialect of OpenAPI 3.1).
 */
import { toJsonSchemaDefs } from '@valibot/to-json-schema';
import { HEALTH_PATH, isV1Path, MCP_PATH, OPENAPI_PATH, REST_ROUTES } from './routes.ts';
import * as schemas from './schemas.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

const RATE_LIMIT_HEADERS = ['RateLimit-Policy', 'RateLimit', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const COMMON_HEADERS = [...RATE_LIMIT_HEADERS, 'Link', 'X-Content-Type-Options', 'Access-Control-Allow-Origin'];
const V1_HEADERS = ['Deprecation', 'Sunset'];
const OPENAPI_SCHEMA = {
  type: 'object',
  description: 'An OpenAPI 3.1 document.',
  properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
  required: ['openapi', 'info', 'paths'],
};

export interface OpenApiInput {
  base: string;
  title: string;
  version: string;
  deprecated: boolean;
  mcpMaxBodyBytes: number;
  mcpProtocolVersions: string[];
  toolNames: readonly string[];
}

function headers(names: string[]) {
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}

function problem(description: string, extraHeaders: string[] = [], common = COMMON_HEADERS) {
  return {
    description,
    headers: headers([...common, ...extraHeaders, 'Cache-Control']),
    content: { 'application/problem+json': { schema: ref('Problem') } },
  };
}

export function buildOpenApi(input: OpenApiInput): Record<string, unknown> {
  const defs = toJsonSchemaDefs(
    {
      ApiIndex: schemas.ApiIndex,
      Health: schemas.Health,
      Product: schemas.Product,
      ProductFacts: schemas.ProductFacts,
      Resource: schemas.Resource,
      StartOption: schemas.StartOption,
      Deprecation: schemas.Deprecation,
      Problem: schemas.Problem,
      ProblemType: schemas.ProblemType,
      JsonRpcMessage: schemas.JsonRpcMessage,
      JsonRpcResponse: schemas.JsonRpcResponse,
    },
    { target: 'draft-2020-12', overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}` },
  );

  const getOperation = (route: (typeof REST_ROUTES)[number], isV1: boolean, method: 'get' | 'head') => {
    const common = isV1 ? [...COMMON_HEADERS, ...V1_HEADERS] : COMMON_HEADERS;
    return {
      operationId: method === 'get' ? route.operationId : route.operationId.replace(/^get/, 'head'),
      summary: method === 'get' ? route.summary : `${route.summary} (headers only)`,
      description: method === 'get' ? route.description : 'As GET, without a body. Content-Length is the GET body\'s length.',
      tags: [isV1 ? 'v1' : 'service'],
      ...(isV1 && input.deprecated ? { deprecated: true } : {}),
      ...(route.path.includes('{code}')
        ? { parameters: [{ name: 'code', in: 'path', required: true, schema: { type: 'string', enum: [...schemas.PROBLEM_CODES] } }] }
        : {}),
      responses: {
        '200': {
          description: route.summary,
          headers: headers([...common, 'ETag', 'Cache-Control', ...(route.path === OPENAPI_PATH ? ['Vary'] : [])]),
          ...(method === 'get' ? { content: { 'application/json': { schema: route.schemaName === 'OpenApi' ? OPENAPI_SCHEMA : ref(route.schemaName) } } } : {}),
        },
        '304': { description: 'Not modified: the If-None-Match ETag is current.', headers: headers([...common, 'ETag', 'Cache-Control']) },
        ...(route.path.includes('{code}') ? { '404': responseRef('NotFound') } : {}),
        '429': responseRef('TooManyRequests'),
        '500': responseRef('InternalError'),
        ...(route.path === HEALTH_PATH ? {} : { '503': responseRef('ServiceUnavailable') }),
      },
    };
  };

  const restRoutes = [
    ...REST_ROUTES,
    {
      path: OPENAPI_PATH,
      operationId: 'getOpenApi',
      summary: 'OpenAPI document',
      description: 'This document: the authoritative contract. Sent gzip-coded when the client accepts it.',
      schemaName: 'OpenApi',
      schema: schemas.NoInput,
      cacheControl: '',
    },
  ];
  const paths: Record<string, unknown> = {};
  for (const route of restRoutes) {
    const isV1 = isV1Path(route.path);
    paths[route.path] = { get: getOperation(route, isV1, 'get'), head: getOperation(route, isV1, 'head') };
  }

  paths[MCP_PATH] = {
    post: {
      operationId: 'postMcp',
      summary: 'MCP Streamable HTTP endpoint',
      description:
        `Model Context Protocol over Streamable HTTP, stateless, JSON responses. Revisions: ${input.mcpProtocolVersions.join(', ')}. ` +
        `Read-only tools: ${input.toolNames.join(', ')}. JSON-RPC errors stay inside a 200 JSON-RPC response; the problem ` +
        'responses below are HTTP-level refusals. GET and DELETE answer 405.',
      tags: ['mcp'],
      requestBody: {
        required: true,
        description: `One JSON-RPC message, at most ${input.mcpMaxBodyBytes} bytes.`,
        content: { 'application/json': { schema: ref('JsonRpcMessage') } },
      },
      responses: {
        '200': {
          description: 'The JSON-RPC response.',
          headers: headers(COMMON_HEADERS),
          content: { 'application/json': { schema: ref('JsonRpcResponse') } },
        },
        '202': { description: 'A notification was accepted.', headers: headers(COMMON_HEADERS) },
        '400': { description: 'A malformed MCP request, answered by the SDK as a JSON-RPC error.', content: { 'application/json': { schema: ref('JsonRpcResponse') } } },
        '403': problem('The Origin is not allowed to call the MCP endpoint.'),
        '406': problem('The Accept header admits no JSON.'),
        '413': problem(`The body is larger than ${input.mcpMaxBodyBytes} bytes.`),
        '415': problem('The body is not application/json.'),
        '429': responseRef('TooManyRequests'),
        '500': responseRef('InternalError'),
        '503': responseRef('ServiceUnavailable'),
      },
    },
  };

  return {
    openapi: '3.1.1',
    info: {
      title: input.title,
      version: input.version,
      summary: 'Read-only, credential-free product discovery API with an MCP endpoint for agents.',
      description:
        'Reviewed public facts about the product as typed JSON and as read-only MCP tools. No endpoint takes a ' +
        'credential; unknown query parameters are ignored. Every path answers OPTIONS (CORS preflight, 204 with Allow); ' +
        'a known path with another method answers 405 with Allow; any other path answers the 404 problem ' +
        '`api_route_not_found`. Every response carries the rate-limit headers of the `default` policy.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: input.base }],
    // Public and credential-free: no operation takes any security scheme.
    security: [],
    tags: [
      { name: 'v1', description: 'The versioned REST API. It changes only by adding fields.' },
      { name: 'mcp', description: 'The Model Context Protocol endpoint for agents.' },
      { name: 'service', description: 'The contract and the problem types.' },
    ],
    paths,
    components: {
      schemas: defs,
      headers: {
        'RateLimit-Policy': header('The `default` quota policy: `"default";q=<quota>;w=<window seconds>` (IETF RateLimit fields, structured-field List).'),
        RateLimit: header('Remaining quota: `"default";r=<remaining>;t=<seconds until reset>`.'),
        'X-RateLimit-Limit': header('The quota per window.', { type: 'integer', minimum: 1 }),
        'X-RateLimit-Remaining': header('Requests remaining in this window.', { type: 'integer', minimum: 0 }),
        'X-RateLimit-Reset': header('When the window resets, Unix epoch seconds.', { type: 'integer' }),
        'Retry-After': header('Seconds to wait before trying again.', { type: 'integer', minimum: 0 }),
        ETag: header('Strong entity tag of the representation.'),
        'Cache-Control': header('Caching policy of the response.'),
        Vary: header('Request headers that select the representation.'),
        Link: header('`<{base}/openapi.json>; rel="service-desc"`, plus the successor version while v1 is deprecated.'),
        'X-Content-Type-Options': header('Always `nosniff`.'),
        'Access-Control-Allow-Origin': header('Always `*`; credentials are never allowed.'),
        Deprecation: header('RFC 9745: `@<unix seconds>` when v1 was deprecated; present only while a deprecation is configured.'),
        Sunset: header('RFC 8594: HTTP-date after which v1 may stop answering; present only while a deprecation is configured.'),
      },
      responses: {
        NotFound: problem('The path is not part of the public contract (`api_route_not_found`).'),
        TooManyRequests: problem('The quota is used up (`rate_limited`); the body names the violated policy.', ['Retry-After']),
        InternalError: problem('A bug on the service side (`internal_error`); `instance` identifies the failure in the logs.'),
        ServiceUnavailable: problem('A dependency is down and the service fails closed (`service_unavailable`).', ['Retry-After']),
      },
    },
  };
}

function header(description: string, schema: Record<string, unknown> = { type: 'string' }) {
  return { description, schema };
}
