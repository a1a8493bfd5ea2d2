/**
 * @module The OpenAPI 3.1 document, built once per set of facts from the route table, the header
 * rules and the valibot schemas (JSON Schema draft 2020-12, the dialect of OpenAPI 3.1).
 */
import type * as v from 'valibot';
import { describeTools, mcpMarkdown } from '../docs/mcp-markdown.ts';
import { carriedHeaders, headerComponents, type AnswerKind } from '../http/headers.ts';
import { BODY_CUT_OFF, BODY_DEADLINE_MS } from '../http/body.ts';
import { tooLargeDetail } from '../mcp/gate.ts';
import { listedPrompts } from '../mcp/prompts.ts';
import { resourceInfos } from '../mcp/resources.ts';
import { JsonRpcBatch, JsonRpcBatchResponse, JsonRpcMessage, MAX_BATCH_MESSAGES } from '../mcp/schemas.ts';
import { TOOLS } from '../mcp/tools.ts';
import { BATCH_REVISION, MCP_PROTOCOL_VERSIONS } from '../mcp/versions.ts';
import { RATE_LIMITED_CODE } from '../mcp/over-quota.ts';
import { exceededMembers, problemBody, problemDescription, type ProblemMembers } from '../contract/problems.ts';
import { rulesParagraph } from '../facts/product-rules.ts';
import { allowOf, isV1Path, MCP_PATH, OPENAPI_PATH, pathsOf, type BuildContext, type Route } from '../route.ts';
import { schemaComponents, titleOf } from './components.ts';
import * as answers from '../contract/schemas.ts';
import { shapes } from './shapes.ts';
import type { ProblemCode } from '../contract/schemas.ts';

const nameOf = (schema: v.GenericSchema) => titleOf(schema)!;
const ref = (schema: v.GenericSchema) => ({ $ref: `#/components/schemas/${nameOf(schema)}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** The `headers` of a response: the names headers.ts says an answer of that kind carries. */
const headersOf = (path: string, kind: AnswerKind, code?: ProblemCode, route?: Route) =>
  Object.fromEntries(carriedHeaders(path, kind, code, route).map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/** A document's `content`: its default media type, its other representations, and the other types its paths are in. */
function contentOf(route: Route, example: unknown) {
  return {
    [route.mediaType]: { schema: ref(route.body(shapes)), ...(example === undefined ? {} : { example }) },
    ...Object.fromEntries((route.alternates ?? []).map(({ mediaType, body }) => [mediaType, { schema: ref(body(shapes)) }])),
    ...Object.fromEntries((route.otherMediaTypes ?? []).map((mediaType) => [mediaType, { schema: ref(route.body(shapes)) }])),
  };
}

/**
 * A JSON document's real body, built from the facts served, as its example: readers of the
 * reference see true values, not ones made up from the schema's patterns. (Not this document's own.)
 */
async function exampleOf(route: Route, context: BuildContext): Promise<unknown> {
  if (typeof route.answer !== 'function' || route.path === OPENAPI_PATH || !/json/.test(route.mediaType)) return undefined;
  return route.answer(context, pathsOf(route)[0]!.params);
}

/** Every API path outside /api/v1 carries the same problem headers: the shared responses use one of them. */
const SHARED_PATH = '/';

function problem(path: string, code: ProblemCode, description: string, base: string, members?: ProblemMembers) {
  return {
    description,
    headers: headersOf(path, 'problem', code),
    content: { 'application/problem+json': { schema: ref(answers.Problem), example: problemBody(base, code, members) } },
  };
}

/** The refusals every route can answer: the rate limit's when it is counted, and the 404 of a path whose parameter is unknown. */
function commonRefusals(route: Route) {
  return {
    ...(route.params ? { '404': responseRef('NotFound') } : {}),
    // An uncounted route (health) is never refused: not over quota, and failing closed it answers 200 degraded.
    ...(route.counted === false ? {} : { '429': responseRef('TooManyRequests') }),
    '500': responseRef('InternalError'),
    ...(route.counted === false ? {} : { '503': responseRef('ServiceUnavailable') }),
  };
}

/** The redirects a route answers with on this service (a docs-page one only while the page is served). */
const redirectsOf = (route: Route, { docsPage }: BuildContext) =>
  (route.redirects ?? []).filter((redirect) => docsPage || !redirect.docsPage);

function documentOperations(route: Route, context: BuildContext, example: unknown) {
  const deprecated = Boolean(context.deprecation);
  const shared = {
    tags: [route.tag],
    ...(isV1Path(route.path) && deprecated ? { deprecated: true } : {}),
    ...(route.params
      ? {
          parameters: Object.entries(route.params).map(([name, values]) => ({
            name,
            in: 'path',
            required: true,
            schema: { type: 'string', enum: [...values] },
          })),
        }
      : {}),
  };
  const responses = (withBody: boolean) => ({
    '200': {
      description: route.summary,
      headers: headersOf(route.path, 'document', undefined, route),
      ...(withBody ? { content: contentOf(route, example) } : {}),
    },
    ...(redirectsOf(route, context).length > 0
      ? {
          '302': {
            description: `Found: an Accept that prefers ${redirectsOf(route, context)
              .map((r) => `${r.mediaType} is sent to ${r.path}`)
              .join(', ')} (empty body).`,
            headers: headersOf(route.path, 'redirect', undefined, route),
          },
        }
      : {}),
    '304': {
      description: 'Not modified: the If-None-Match ETag is current.',
      headers: headersOf(route.path, 'notModified', undefined, route),
    },
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

/** How to connect, each tool with its schemas, the resources: Markdown generated from the definitions the endpoint serves. */
function mcpGuide({ base, facts }: BuildContext): string {
  const resources = resourceInfos(base, facts);
  return mcpMarkdown({
    base,
    protocolVersions: MCP_PROTOCOL_VERSIONS,
    tools: describeTools(TOOLS, facts, shapes),
    resources,
    prompts: listedPrompts(),
  });
}

function mcpOperations(route: Route, context: BuildContext) {
  const { mcp } = context;
  const refusals = Object.fromEntries(
    // The 400 is the JSON-RPC error's, which the bad_request problem joins below.
    (route.refusals ?? [])
      .filter((code) => code !== 'bad_request')
      .map((code) => {
        const { status, detail } = problemDescription(code);
        return [
          String(status),
          problem(route.path, code, code === 'payload_too_large' ? tooLargeDetail(mcp.maxBodyBytes) : detail, context.base),
        ];
      }),
  );
  return {
    post: {
      operationId: route.operationId,
      summary: route.summary,
      description:
        `${route.description} JSON-RPC errors stay inside a JSON-RPC response; the problem responses below are HTTP-level ` +
        `refusals (Allow: ${allowOf(route)}). Over quota, a deployment with MCP_RATE_LIMIT_ANSWER=jsonrpc answers 200 instead, ` +
        `with the same headers: a JSON-RPC error per request (code ${RATE_LIMITED_CODE}, \`data: { retryAfter, policy }\`), ` +
        `and to \`tools/call\` a result with \`isError: true\` whose text says the wait.\n\n${mcpGuide(context)}`,
      tags: [route.tag],
      requestBody: {
        required: true,
        description:
          `One JSON-RPC message, at most ${mcp.maxBodyBytes} bytes; only under revision ${BATCH_REVISION} (MCP-Protocol-Version ` +
          `${BATCH_REVISION}, or no such header) a batch of up to ${MAX_BATCH_MESSAGES} messages.`,
        content: {
          [route.mediaType]: {
            schema: { anyOf: [ref(JsonRpcMessage), ref(JsonRpcBatch)] },
            example: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { query: 'pricing' } } },
          },
        },
      },
      responses: {
        '200': {
          description: 'The JSON-RPC response; to a batch, the responses to its requests as an array, a batch of one included.',
          headers: headersOf(route.path, 'mcp'),
          content: { [route.mediaType]: { schema: { anyOf: [ref(route.body(shapes)), ref(JsonRpcBatchResponse)] } } },
        },
        '202': {
          description: 'A notification, or a batch of only notifications and responses, was accepted.',
          headers: headersOf(route.path, 'mcp'),
        },
        '400': {
          description:
            'A malformed MCP request, answered as a JSON-RPC error: not JSON (-32700); a batch under a revision without batches, ' +
            `an empty batch or one over ${MAX_BATCH_MESSAGES} (-32600, id null); an unsupported revision (the supported ones listed). ` +
            `A body the client cut off, or one still arriving after ${BODY_DEADLINE_MS / 1000} s, is refused with the bad_request problem instead.`,
          headers: headersOf(route.path, 'mcpError'),
          content: {
            [route.mediaType]: { schema: ref(route.body(shapes)) },
            'application/problem+json': {
              schema: ref(answers.Problem),
              example: problemBody(context.base, 'bad_request', { detail: BODY_CUT_OFF }),
            },
          },
        },
        ...refusals,
        ...commonRefusals(route),
      },
    },
  };
}

/** `routes`: those served, whose operations the document lists; `table`: the whole route table, whose shapes it names. */
export async function buildOpenApi(
  context: BuildContext,
  routes: readonly Route[],
  table: readonly Route[] = routes,
): Promise<Record<string, unknown>> {
  // Some documents are built by a module loaded on first need (a promise of the body).
  const examples = await Promise.all(routes.map((route) => exampleOf(route, context)));
  const paths = Object.fromEntries(
    routes.map((route, i) => [
      route.path,
      route.answer === 'mcp' ? mcpOperations(route, context) : documentOperations(route, context, examples[i]),
    ]),
  );

  return {
    openapi: '3.1.1',
    info: {
      title: context.name,
      version: context.version,
      summary: 'Read-only, credential-free product discovery API with an MCP endpoint for agents.',
      description:
        'Reviewed public facts about the product as typed JSON and as read-only MCP tools. No endpoint takes a ' +
        'credential; unknown query parameters are ignored. Every path answers OPTIONS (CORS preflight, 204 with Allow); ' +
        'a known path with another method answers 405 with Allow; any other path answers the 404 problem ' +
        '`api_route_not_found`. Every response carries the rate-limit headers of the policy its client counts under: ' +
        '`default`, or one the operator gives a network or a verified agent (RATE_LIMIT_POLICIES), named in RateLimit-Policy ' +
        'and RateLimit.' +
        `\n\n${rulesParagraph(context.facts)}`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: context.base }],
    // Public and credential-free: no operation takes any security scheme.
    security: [],
    tags: [
      { name: 'v1', description: 'The versioned REST API. It changes only by adding fields.' },
      {
        name: 'mcp',
        description: `The Model Context Protocol endpoint for agents: how to connect, its tools, resources and prompts are under POST ${MCP_PATH}.`,
      },
      { name: 'service', description: 'The contract, the problem types and this reference page.' },
      {
        name: 'discovery',
        description:
          "Where agents and crawlers find the API: the host's root, robots.txt, the sitemap, the RFC 9727 API catalog, llms.txt and " +
          'llms-full.txt, the MCP server card, the Agent Skill and its index, the AI catalog, security.txt.',
      },
    ],
    paths,
    components: {
      schemas: schemaComponents(table, context.facts),
      headers: headerComponents(),
      responses: {
        NotFound: problem(
          SHARED_PATH,
          'api_route_not_found',
          'The path is not part of the public contract (`api_route_not_found`).',
          context.base,
        ),
        TooManyRequests: problem(
          SHARED_PATH,
          'rate_limited',
          'The quota is used up (`rate_limited`); `violated-policies` names the policy, as RateLimit-Policy does; `retryAfter` ' +
            'is the Retry-After seconds, which `detail` says in words, for a client that sees only the body.',
          context.base,
          exceededMembers('default', 42),
        ),
        InternalError: problem(
          SHARED_PATH,
          'internal_error',
          'A bug on the service side (`internal_error`); `instance` identifies the failure in the logs.',
          context.base,
        ),
        ServiceUnavailable: problem(
          SHARED_PATH,
          'service_unavailable',
          'A dependency is down and the service fails closed (`service_unavailable`).',
          context.base,
        ),
      },
    },
  };
}
