/**
 * @module The valibot schemas of the REST answers other than the facts: the API index, health, problems,
 * deprecation and the documents' envelopes. The OpenAPI document and the answers' checks derive from them.
 */
import * as v from 'valibot';
import { isoDate, text, webUrl } from '../facts/schema.ts';
import { PROBLEM_CODES } from './problem-codes.ts';

export const Deprecation = v.pipe(
  v.object({
    deprecatedAt: v.pipe(v.string(), v.isoTimestamp()),
    sunsetAt: v.pipe(v.string(), v.isoTimestamp()),
    successor: webUrl,
  }),
  v.title('Deprecation'),
  v.description('Present while this API version is deprecated: when it stops being served and where to migrate.'),
);

export const ApiIndex = v.pipe(
  v.object({
    name: text,
    apiVersion: v.literal('v1'),
    description: text,
    links: v.object({
      self: webUrl,
      health: webUrl,
      product: webUrl,
      openapi: webUrl,
      problems: webUrl,
      // The discovery documents: RFC 9727 API catalog, llms.txt, MCP server card; the docs page while it is served.
      apiCatalog: webUrl,
      llmsTxt: webUrl,
      mcpServerCard: webUrl,
      docs: v.optional(webUrl),
    }),
    mcp: v.object({
      url: webUrl,
      transport: v.literal('streamable-http'),
      protocolVersions: v.array(v.string()),
      tools: v.array(v.string()),
    }),
    deprecation: v.optional(Deprecation),
  }),
  v.title('ApiIndex'),
  v.description('Where everything is: endpoints, the OpenAPI document and the MCP endpoint.'),
);

export const Health = v.pipe(
  v.object({
    status: v.picklist(['ok', 'degraded']),
    version: v.pipe(v.string(), v.description('The release serving this answer (the package version).')),
    rateLimitStore: v.picklist(['memory', 'redis', 'durable-object', 'dynamodb', 'deno-kv']),
    redisMode: v.optional(
      v.pipe(
        v.picklist(['standalone', 'cluster', 'sentinel', 'rest']),
        v.description(
          'With rateLimitStore "redis": one Redis server, a Redis Cluster, a master watched by Sentinel, or Redis over HTTP (Upstash\'s REST protocol).',
        ),
      ),
    ),
    reason: v.optional(v.string()),
    // Which facts this instance serves: their review date, and when it loaded them (start-up or the last reload).
    facts: v.object({ reviewedOn: isoDate, loadedAt: v.pipe(v.string(), v.isoTimestamp()) }),
  }),
  v.title('Health'),
  v.description('Service status. "degraded" still answers every request; reason says why.'),
);

export const ProblemCode = v.picklist(PROBLEM_CODES);

export const Problem = v.pipe(
  v.object({
    type: webUrl,
    title: text,
    status: v.pipe(v.number(), v.integer(), v.minValue(400), v.maxValue(599)),
    code: ProblemCode,
    detail: text,
    resolution: text,
    instance: v.optional(v.string()),
    'violated-policies': v.optional(v.array(v.string())),
    retryAfter: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.description('With a 429: the seconds to wait before trying again, the Retry-After value, for a client that sees only the body.'),
      ),
    ),
  }),
  v.title('Problem'),
  v.description('RFC 9457 problem details.'),
);

export const ProblemType = v.pipe(
  v.object({
    type: webUrl,
    code: ProblemCode,
    title: text,
    status: v.pipe(v.number(), v.integer()),
    description: text,
    resolution: text,
  }),
  v.title('ProblemType'),
  v.description('What a problem type means and how to resolve it.'),
);

export const FactsJsonSchema = v.pipe(
  v.looseObject({ $schema: v.string(), $id: v.pipe(v.string(), v.url()), type: v.literal('object') }),
  v.title('FactsJsonSchema'),
  v.description('The JSON Schema (draft 2020-12) of the reviewed facts file, as strict as the check at start-up.'),
);

export const OpenApiDocument = v.pipe(
  v.looseObject({ openapi: v.string(), info: v.looseObject({}), paths: v.looseObject({}) }),
  v.title('OpenApiDocument'),
  v.description('An OpenAPI 3.1 document.'),
);

export type ApiIndex = v.InferOutput<typeof ApiIndex>;
export type Health = v.InferOutput<typeof Health>;
export type Problem = v.InferOutput<typeof Problem>;
export type ProblemCode = v.InferOutput<typeof ProblemCode>;
export type ProblemType = v.InferOutput<typeof ProblemType>;
