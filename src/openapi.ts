/**
 * @module The OpenAPI 3.1 document, built once at start-up from the route table, the header table
 * and the valibot schemas (JSON Schema draft 2020-12, the dialect of OpenAPI 3.1).
 */
import * as v from 'valibot';
import { toJsonSchemaDefs } from '@valibot/to-json-schema';
import { headerComponents, RATE_LIMIT_HEADERS, type HeaderName } from './headers.ts';
import { problemDescription } from './problems.ts';
import * as discovery from './discovery/schemas.ts';
import { allowOf, isV1Path, ROUTES, type Route } from './routes.ts';
import * as schemas from './schemas.ts';
import type { ProblemCode } from './schemas.ts';

/** Every named shape the document refers to, keyed by its `v.title`. */
const COMPONENTS = [
  schemas.ApiIndex,
  schemas.Health,
  schemas.Product,
  schemas.ProductFacts,
  schemas.Resource,
  schemas.StartOption,
  schemas.Deprecation,
  schemas.Problem,
  schemas.ProblemType,
  schemas.OpenApiDocument,
  schemas.JsonRpcMessage,
  schemas.JsonRpcResponse,
  discovery.ApiCatalog,
  discovery.LlmsText,
  discovery.ServerCard,
];

const nameOf = (schema: v.GenericSchema) => v.getTitle(schema as v.SchemaWithPipe<[v.GenericSchema, v.TitleAction<unknown, string>]>)!;
const ref = (schema: v.GenericSchema) => ({ $ref: `#/components/schemas/${nameOf(schema)}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const headers = (names: HeaderName[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const COMMON: HeaderName[] = [...RATE_LIMIT_HEADERS, 'Link', 'X-Content-Type-Options', 'Access-Control-Allow-Origin'];
const commonFor = (path: string): HeaderName[] => (isV1Path(path) ? [...COMMON, 'Deprecation', 'Sunset'] : COMMON);

export interface OpenApiInput {
  base: string;
  title: string;
  version: string;
  deprecated: boolean;
  mcpMaxBodyBytes: number;
  mcpProtocolVersions: string[];
  toolNames: readonly string[];
}

function problem(description: string, extraHeaders: HeaderName[] = []) {
  return {
    description,
    headers: headers([...COMMON, ...extraHeaders, 'Cache-Control']),
    content: { 'application/problem+json': { schema: ref(schemas.Problem) } },
  };
}

/** The refusals a route can answer: the rate limit's when it is counted, and the 404 of a path whose parameter is unknown. */
function commonRefusals(route: Route) {
  return {
    ...(route.params ? { '404': responseRef('NotFound') } : {}),
    // An uncounted route (health) is never refused: not over quota, and failing closed it answers 200 degraded.
    ...(route.counted === false ? {} : { '429': responseRef('TooManyRequests') }),
    '500': responseRef('InternalError'),
    ...(route.counted === false ? {} : { '503': responseRef('ServiceUnavailable') }),
  };
}

function documentOperations(route: Route, input: OpenApiInput) {
  const common = commonFor(route.path);
  const shared = {
    tags: [route.tag],
    ...(isV1Path(route.path) && input.deprecated ? { deprecated: true } : {}),
    ...(route.params
      ? { parameters: Object.entries(route.params).map(([name, values]) => ({ name, in: 'path', required: true, schema: { type: 'string', enum: [...values] } })) }
      : {}),
  };
  const responses = (withBody: boolean) => ({
    '200': {
      description: route.summary,
      headers: headers([...common, 'ETag', 'Cache-Control', 'Vary']),
      ...(withBody ? { content: { [route.mediaType]: { schema: ref(route.body) } } } : {}),
    },
    '304': { description: 'Not modified: the If-None-Match ETag is current.', headers: headers([...common, 'ETag', 'Cache-Control']) },
    ...commonRefusals(route),
  });
  return {
    get: { operationId: route.operationId, summary: route.summary, description: route.description, ...shared, responses: responses(true) },
    head: {
      operationId: route.operationId.replace(/^get/, 'head'),
      summary: `${route.summary} (headers only)`,
      description: "As GET, without a body. Content-Length is the GET body's length.",
      ...shared,
      responses: responses(false),
    },
  };
}

const MCP_REFUSALS: ProblemCode[] = ['origin_not_allowed', 'not_acceptable', 'payload_too_large', 'unsupported_media_type'];

function mcpOperations(route: Route, input: OpenApiInput) {
  const refusals = Object.fromEntries(
    MCP_REFUSALS.map((code) => {
      const { status, detail } = problemDescription(code);
      return [String(status), problem(code === 'payload_too_large' ? `The body is larger than ${input.mcpMaxBodyBytes} bytes.` : detail)];
    }),
  );
  return {
    post: {
      operationId: route.operationId,
      summary: route.summary,
      description:
        `${route.description} Revisions: ${input.mcpProtocolVersions.join(', ')}. Read-only tools: ${input.toolNames.join(', ')}. ` +
        'JSON-RPC errors stay inside a 200 JSON-RPC response; the problem responses below are HTTP-level refusals. ' +
        `GET and DELETE answer 405 (Allow: ${allowOf(route)}).`,
      tags: [route.tag],
      requestBody: {
        required: true,
        description: `One JSON-RPC message, at most ${input.mcpMaxBodyBytes} bytes.`,
        content: { [route.mediaType]: { schema: ref(schemas.JsonRpcMessage) } },
      },
      responses: {
        '200': { description: 'The JSON-RPC response.', headers: headers(COMMON), content: { [route.mediaType]: { schema: ref(route.body) } } },
        '202': { description: 'A notification was accepted.', headers: headers(COMMON) },
        '400': {
          description: 'A malformed MCP request, answered by the SDK as a JSON-RPC error.',
          headers: headers([...COMMON, 'Cache-Control']),
          content: { [route.mediaType]: { schema: ref(route.body) } },
        },
        ...refusals,
        ...commonRefusals(route),
      },
    },
  };
}

export function buildOpenApi(input: OpenApiInput): Record<string, unknown> {
  const defs = toJsonSchemaDefs(Object.fromEntries(COMPONENTS.map((schema) => [nameOf(schema), schema])), {
    target: 'draft-2020-12',
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  });
  const paths = Object.fromEntries(
    ROUTES.map((route) => [route.path, route.answer === 'mcp' ? mcpOperations(route, input) : documentOperations(route, input)]),
  );

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
      { name: 'discovery', description: 'Where agents and crawlers find the API: the RFC 9727 API catalog, llms.txt and the MCP server card.' },
    ],
    paths,
    components: {
      schemas: defs,
      headers: headerComponents(),
      responses: {
        NotFound: problem('The path is not part of the public contract (`api_route_not_found`).'),
        TooManyRequests: problem('The quota is used up (`rate_limited`); the body names the violated policy.', ['Retry-After']),
        InternalError: problem('A bug on the service side (`internal_error`); `instance` identifies the failure in the logs.'),
        ServiceUnavailable: problem('A dependency is down and the service fails closed (`service_unavailable`).', ['Retry-After']),
      },
    },
  };
}
