/**
 * @module The valibot schemas of the search and fetch tools and of the prompts' arguments (the
 * other tools' schemas are parts of the Product body, in ../schemas.ts). The SDK gets them through
 * `toStandardJsonSchema`, so they are the input and output schemas the tools list.
 */
import * as v from 'valibot';
import { RESOURCE_KINDS, Resource, ResourceKind, StartOption } from '../facts/schema.ts';
import { MAX_BATCH_MESSAGES } from './batch.ts';
import { BATCH_REVISION } from './versions.ts';

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

/** The bound of every free-text argument: a search query, a document id, a goal. */
export const MAX_ARGUMENT_LENGTH = 200;

const bounded = (what: string) =>
  v.pipe(
    v.string(),
    v.minLength(1, `${what} must not be empty`),
    v.maxLength(MAX_ARGUMENT_LENGTH, `${what} must be at most ${MAX_ARGUMENT_LENGTH} characters`),
  );
const webUrl = v.pipe(v.string(), v.url());

// The search and fetch tools, in the shapes ChatGPT's connectors call.
export const SearchInput = v.strictObject(
  {
    query: v.pipe(
      bounded('query'),
      v.description('Words to look for in the product overview, the public resources and the start options.'),
    ),
  },
  argumentsMessage(`tool takes only "query", 1 to ${MAX_ARGUMENT_LENGTH} characters`),
);
export const SearchOutput = v.object({
  results: v.pipe(
    v.array(
      v.object({
        id: v.pipe(v.string(), v.description('The id to pass to fetch.')),
        title: v.string(),
        url: v.pipe(webUrl, v.description('The canonical URL, for citation.')),
      }),
    ),
    v.description('Best match first; empty when nothing matches.'),
  ),
});

export const FetchInput = v.strictObject(
  { id: v.pipe(bounded('id'), v.description('The id of a search result, e.g. "overview".')) },
  argumentsMessage('tool takes only "id", a search result\'s id'),
);
export const DOCUMENT_SOURCES = ['overview', 'resource', 'start-option'] as const;
const metadataHead = {
  source: v.pipe(v.picklist(DOCUMENT_SOURCES), v.description('What the document is made from.')),
  reviewedOn: v.pipe(v.string(), v.isoDate(), v.description('The date the product team last reviewed the facts.')),
  kind: v.optional(ResourceKind),
  requiresHumanApproval: v.optional(v.boolean()),
};
const performs = v.optional(
  v.pipe(v.array(v.string()), v.description("The ids of the actions needing a person's approval that it performs.")),
);
const fetchOutput = <T extends v.ObjectEntries>(metadata: T) =>
  v.object({
    id: v.string(),
    title: v.string(),
    text: v.pipe(v.string(), v.description('The document as Markdown.')),
    url: v.pipe(webUrl, v.description('The canonical URL, for citation.')),
    metadata: v.optional(v.object(metadata)),
  });

/** The fetch tool's result, with v1's `createsGallery` in its metadata when the facts served give it. */
export const FetchOutput = fetchOutput({ ...metadataHead, createsGallery: v.optional(v.boolean()), performs });
export const fetchOutputSchema = (withLegacyFlag: boolean) => (withLegacyFlag ? FetchOutput : fetchOutput({ ...metadataHead, performs }));

export const PlanSafeStartArgs = v.strictObject(
  { goal: v.optional(v.pipe(bounded('goal'), v.description('What the person wants to achieve, in their words.'))) },
  argumentsMessage('prompt takes only the optional argument "goal"'),
);

export type SearchOutput = v.InferOutput<typeof SearchOutput>;
export type FetchOutput = v.InferOutput<typeof FetchOutput>;

export { MAX_BATCH_MESSAGES };

// The HTTP bodies of a batch, which only one revision has (see batch.ts).
export const JsonRpcBatch = v.pipe(
  v.array(JsonRpcMessage),
  v.minLength(1),
  v.maxLength(MAX_BATCH_MESSAGES),
  v.title('JsonRpcBatch'),
  v.description(`A JSON-RPC batch: up to ${MAX_BATCH_MESSAGES} messages, only under revision ${BATCH_REVISION}.`),
);
export const JsonRpcBatchResponse = v.pipe(
  v.array(JsonRpcResponse),
  v.minLength(1),
  v.title('JsonRpcBatchResponse'),
  v.description('The responses to the requests of a batch, as an array (a batch of one included, JSON-RPC 2.0 section 6).'),
);
