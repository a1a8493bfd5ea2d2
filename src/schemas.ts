/**
 * @module The valibot schemas: the single source of every shape the service serves.
 * Runtime checks, TypeScript types, the OpenAPI document and the MCP tool schemas all derive from
 * these. Response objects are open (not strict) so that v1 can grow by adding fields.
 */
import * as v from 'valibot';

const text = v.pipe(v.string(), v.regex(/\S/, 'must not be empty or blank'));
const webUrl = v.pipe(v.string(), v.url('must be an absolute URL'), v.regex(/^https?:\/\//, 'must be an http or https URL'));
const isoDate = v.pipe(v.string(), v.isoDate('must be an ISO 8601 date such as 2026-01-31'));
const list = <T extends v.GenericSchema>(item: T) => v.pipe(v.array(item), v.minLength(1, 'must list at least one entry'));

export const RESOURCE_KINDS = ['website', 'docs', 'pricing', 'status', 'support', 'terms', 'privacy', 'openapi', 'mcp'] as const;
export const ResourceKind = v.pipe(v.picklist(RESOURCE_KINDS), v.description('What the resource is.'));

const slug = v.pipe(v.string(), v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a lowercase slug such as read-the-docs'));

export const Resource = v.pipe(
  v.object({
    id: v.optional(
      v.pipe(slug, v.description('A stable identifier, unique among the resources; without one, the resource is known by its `kind`.')),
    ),
    kind: ResourceKind,
    title: text,
    url: webUrl,
    description: text,
  }),
  v.title('Resource'),
  v.description('A canonical public resource of the product.'),
);

/**
 * How v1's `createsGallery` appears in a schema. It is the sample product's own flag, kept for the facts
 * that use it: a facts file may leave it out, and the schemas a service serves (OpenAPI, MCP) carry it
 * as v1 did when every start option has it, as optional when some do, and not at all when none do.
 */
export type LegacyFlag = 'required' | 'optional' | 'absent';

const createsGallery = v.pipe(v.boolean(), v.description('Whether taking this option creates a gallery.'));

const startOptionHead = {
  id: v.pipe(slug, v.description('A stable identifier, unique among the start options.')),
  title: text,
  description: text,
  url: webUrl,
};
const startOptionTail = {
  performs: v.optional(
    v.pipe(
      list(slug),
      v.description(
        'The production actions taking this option performs, by their ids in product.actionsNeedingApproval; ' +
          'absent when it performs none (it only reads, shows or explains).',
      ),
    ),
  ),
  requiresHumanApproval: v.pipe(
    v.boolean(),
    v.description(
      'Whether a person must approve this step before an agent takes it. ' +
        'Always true for an option that performs an action of product.actionsNeedingApproval.',
    ),
  ),
};

const startOption = <T extends v.ObjectEntries>(entries: T) =>
  v.pipe(v.object(entries), v.title('StartOption'), v.description('A safe way to start with the product.'));

function startOptionSchema(legacy: LegacyFlag) {
  if (legacy === 'required') return startOption({ ...startOptionHead, createsGallery, ...startOptionTail });
  if (legacy === 'optional') return startOption({ ...startOptionHead, createsGallery: v.optional(createsGallery), ...startOptionTail });
  return startOption({ ...startOptionHead, ...startOptionTail });
}

/** A start option as a facts file gives it: `createsGallery` may be given or left out. */
export const StartOption = startOption({ ...startOptionHead, createsGallery: v.optional(createsGallery), ...startOptionTail });

export const ApprovalAction = v.pipe(
  v.object({
    id: v.pipe(slug, v.description('A stable identifier, unique among these actions; start options name it in `performs`.')),
    action: v.pipe(text, v.description('The action as it reads inside a sentence, in lower case, such as "publishing a notebook".')),
    reason: v.pipe(
      text,
      v.description('Why a person must approve it, as it reads after "because", such as "it makes unpublished work readable by anyone".'),
    ),
  }),
  v.title('ApprovalAction'),
  v.description("A production action that needs a person's approval before anyone takes it, and why."),
);

export const ProductFacts = v.pipe(
  v.object({
    name: text,
    summary: text,
    audiences: list(text),
    capabilities: list(text),
    notOffered: v.pipe(list(text), v.description('What the public API deliberately does not do.')),
    neverReturned: v.optional(
      v.pipe(
        list(text),
        v.description('The kinds of private data this service never returns, as plural nouns in the product\'s words, such as "accounts".'),
      ),
    ),
    actionsNeedingApproval: v.optional(
      v.pipe(list(ApprovalAction), v.description("The production actions that need a person's approval, and why.")),
    ),
    privateContract: v.optional(
      v.pipe(
        list(text),
        v.description(
          "What lies outside this public API, under the product's private contract (operations, links, sessions, permission names): " +
            'named so that nobody looks for it here.',
        ),
      ),
    ),
    reviewedOn: v.pipe(isoDate, v.description('The date the product team last reviewed these facts.')),
  }),
  v.title('ProductFacts'),
  v.description('Reviewed facts about the product.'),
);

function productSchema<T extends v.GenericSchema>(startOption: T) {
  return v.pipe(
    v.object({
      product: ProductFacts,
      resources: list(Resource),
      startOptions: list(startOption),
    }),
    v.title('Product'),
    v.description('Reviewed product facts, canonical public resources and safe start options.'),
  );
}

export const Product = productSchema(StartOption);

/** How a set of facts uses v1's `createsGallery`: on every start option, on some, or on none. */
export function legacyFlagOf(facts: { startOptions: readonly { createsGallery?: boolean }[] }): LegacyFlag {
  const given = facts.startOptions.filter((option) => option.createsGallery !== undefined).length;
  return given === 0 ? 'absent' : given === facts.startOptions.length ? 'required' : 'optional';
}

/** The facts file as its team writes it: the Product body, plus the `$schema` member editors read (never served). */
function factsFileSchema<T extends v.ObjectEntries>(product: { entries: T }) {
  return v.pipe(
    v.object({
      $schema: v.optional(
        v.pipe(
          v.string(),
          v.description('The JSON Schema an editor checks this file against, such as {base}/schemas/facts.json. Not served.'),
        ),
      ),
      ...product.entries,
    }),
    v.title('FactsFile'),
    v.description('The reviewed facts file: the layout of the GET /api/v1/product body, and nothing else.'),
  );
}

export const FactsFile = factsFileSchema(Product);

/**
 * The shapes a service serves for these facts (the OpenAPI components, the MCP tools' output schemas, the
 * facts file's JSON Schema): the same schemas, with `createsGallery` as these facts use it, so a product
 * without it never shows it. The facts file's schema keeps it optional for the facts that give it.
 */
export function servedSchemas(facts: { startOptions: readonly { createsGallery?: boolean }[] }) {
  const legacy = legacyFlagOf(facts);
  const served = startOptionSchema(legacy);
  const Product = productSchema(served);
  return {
    StartOption: served,
    Product,
    StartOptionList: v.object({ startOptions: v.array(served) }),
    FactsFile: legacy === 'absent' ? factsFileSchema(Product) : FactsFile,
  };
}

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
        v.picklist(['standalone', 'cluster', 'sentinel']),
        v.description('With rateLimitStore "redis": one Redis server, a Redis Cluster, or a master watched by Sentinel.'),
      ),
    ),
    reason: v.optional(v.string()),
    // Which facts this instance serves: their review date, and when it loaded them (start-up or the last reload).
    facts: v.object({ reviewedOn: isoDate, loadedAt: v.pipe(v.string(), v.isoTimestamp()) }),
  }),
  v.title('Health'),
  v.description('Service status. "degraded" still answers every request; reason says why.'),
);

export const PROBLEM_CODES = [
  'api_route_not_found',
  'method_not_allowed',
  'not_acceptable',
  'payload_too_large',
  'unsupported_media_type',
  'origin_not_allowed',
  'rate_limited',
  'internal_error',
  'service_unavailable',
] as const;
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

// MCP tool inputs and outputs. Outputs are the matching parts of the Product body.
/**
 * The message of a tool's or prompt's arguments object that is not right as a whole, saying what it
 * takes: an argument it does not know, one it needs that is missing, or no object at all.
 */
export const argumentsMessage =
  (takes: string) =>
  (issue: v.BaseIssue<unknown>): string =>
    issue.expected === 'never'
      ? `unknown argument: this ${takes}`
      : issue.expected?.startsWith('"')
        ? `missing argument ${issue.expected}: this ${takes}`
        : `the arguments must be a JSON object: this ${takes}`;

export const NoInput = v.strictObject({}, argumentsMessage('tool takes no arguments; call it with {}'));
export const ListResourcesInput = v.strictObject(
  { kind: v.optional(v.pipe(ResourceKind, v.description('Only return resources of this kind.'))) },
  argumentsMessage(`tool takes only the optional argument "kind" (one of ${RESOURCE_KINDS.join(', ')})`),
);
export const ResourceList = v.object({ resources: v.array(Resource) });
export const StartOptionList = v.object({ startOptions: v.array(StartOption) });

export type Product = v.InferOutput<typeof Product>;
export type ProductFacts = v.InferOutput<typeof ProductFacts>;
export type Resource = v.InferOutput<typeof Resource>;
export type StartOption = v.InferOutput<typeof StartOption>;
export type ApprovalAction = v.InferOutput<typeof ApprovalAction>;
export type ApiIndex = v.InferOutput<typeof ApiIndex>;
export type Health = v.InferOutput<typeof Health>;
export type Problem = v.InferOutput<typeof Problem>;
export type ProblemCode = v.InferOutput<typeof ProblemCode>;
export type ProblemType = v.InferOutput<typeof ProblemType>;

// The MCP endpoint's HTTP bodies, as the OpenAPI document describes them (the SDK validates the protocol).
export const JsonRpcMessage = v.pipe(
  v.object({
    jsonrpc: v.literal('2.0'),
    id: v.optional(v.union([v.string(), v.number()])),
    method: v.string(),
    params: v.optional(v.record(v.string(), v.unknown())),
  }),
  v.title('JsonRpcMessage'),
  v.description('One MCP JSON-RPC request or notification.'),
);
export const JsonRpcResponse = v.pipe(
  v.object({
    jsonrpc: v.literal('2.0'),
    id: v.union([v.string(), v.number(), v.null()]),
    result: v.optional(v.record(v.string(), v.unknown())),
    error: v.optional(v.object({ code: v.pipe(v.number(), v.integer()), message: v.string(), data: v.optional(v.unknown()) })),
  }),
  v.title('JsonRpcResponse'),
  v.description('The JSON-RPC response to one MCP request.'),
);
