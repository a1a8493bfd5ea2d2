/**
 * @module The MCP endpoint: three read-only tools over the reviewed facts, served statelessly to
 * both protocol eras with JSON bodies. The protocol stays in the official SDK's hands: 2026-07-28
 * traffic goes to `createMcpHandler`, 2025-era traffic (as its `isLegacyRequest` decides) to a
 * fresh stateless `WebStandardStreamableHTTPServerTransport` with JSON responses, one factory serving both.
 * The modern leg stays in its default `auto` mode: it answers JSON because no tool emits
 * anything before its result.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  type ToolAnnotations,
} from '@modelcontextprotocol/server';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { ListResourcesInput, NoInput, ProductFacts, ResourceList, StartOptionList, type Product } from './schemas.ts';

export const MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * `toStandardJsonSchema` converts to JSON Schema each time it is asked, and the SDK asks on every
 * request (a fresh server per request): convert once per target and hand out the same result.
 */
function convertedOnce<T extends v.GenericSchema>(schema: T) {
  const standard = toStandardJsonSchema(schema);
  const { input, output } = standard['~standard'].jsonSchema;
  const memo = (convert: typeof input): typeof input => {
    const byTarget = new Map<string, Record<string, unknown>>();
    return (options) => {
      if (options.libraryOptions) return convert(options);
      let converted = byTarget.get(options.target);
      if (!converted) byTarget.set(options.target, (converted = convert(options)));
      return converted;
    };
  };
  return { '~standard': { ...standard['~standard'], jsonSchema: { input: memo(input), output: memo(output) } } } as typeof standard;
}

const SCHEMAS = {
  noInput: convertedOnce(NoInput),
  listResourcesInput: convertedOnce(ListResourcesInput),
  productFacts: convertedOnce(ProductFacts),
  resourceList: convertedOnce(ResourceList),
  startOptionList: convertedOnce(StartOptionList),
};

export const TOOL_NAMES = ['get_product_overview', 'list_public_resources', 'list_start_options'] as const;

function result(structuredContent: Record<string, unknown>) {
  return { structuredContent, content: [{ type: 'text' as const, text: JSON.stringify(structuredContent) }] };
}

function buildServer(facts: Product, info: { name: string; version: string }): McpServer {
  const server = new McpServer(info, {
    instructions: `Read-only, reviewed public facts about ${facts.product.name}. No tool creates or changes anything.`,
  });
  server.registerTool(
    'get_product_overview',
    {
      title: 'Product overview',
      description:
        `Returns the reviewed facts about ${facts.product.name}: what it is, who it is for, what it can do, ` +
        'what the public API does not do, and the date the facts were reviewed. Call this first to answer ' +
        'questions about the product. Read-only; needs no arguments.',
      inputSchema: SCHEMAS.noInput,
      outputSchema: SCHEMAS.productFacts,
      annotations: READ_ONLY,
    },
    () => result(facts.product),
  );
  server.registerTool(
    'list_public_resources',
    {
      title: 'Public resources',
      description:
        'Lists the canonical public resources (website, docs, pricing, status, support, terms, privacy, the ' +
        'OpenAPI document, the MCP endpoint), each with a URL and what it is for. Pass `kind` to get one kind ' +
        'only. Use it to link a person to the right official page instead of guessing a URL.',
      inputSchema: SCHEMAS.listResourcesInput,
      outputSchema: SCHEMAS.resourceList,
      annotations: READ_ONLY,
    },
    ({ kind }) => result({ resources: kind ? facts.resources.filter((resource) => resource.kind === kind) : facts.resources }),
  );
  server.registerTool(
    'list_start_options',
    {
      title: 'Safe start options',
      description:
        'Lists the safe ways to start with the product, each with a URL and whether a person must approve it ' +
        'first (`requiresHumanApproval`). Creating a gallery always needs a person\'s approval: present such ' +
        'options to the person, never take them on their behalf.',
      inputSchema: SCHEMAS.noInput,
      outputSchema: SCHEMAS.startOptionList,
      annotations: READ_ONLY,
    },
    () => result({ startOptions: facts.startOptions }),
  );
  return server;
}

/** Serves one already-vetted MCP POST whose body has been read and parsed. */
export type McpEndpoint = (request: Request, parsedBody: unknown) => Promise<Response>;

export function createMcpEndpoint(facts: Product, info: { name: string; version: string }): McpEndpoint {
  const factory = () => buildServer(facts, info);
  const modern = createMcpHandler(factory, { legacy: 'reject' });
  return async (request, parsedBody) => {
    if (!(await isLegacyRequest(request, parsedBody))) return modern.fetch(request, { parsedBody });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await factory().connect(transport);
    // No close(): once the JSON answer exists this per-request pair holds no timer, handler or
    // stream, and close() would only build a "Connection closed" error (about a quarter of the
    // exchange's cost on Bun). Both are garbage once the answer is sent: 60,000 exchanges kept the
    // heap flat in a trial.
    return transport.handleRequest(request, { parsedBody });
  };
}
