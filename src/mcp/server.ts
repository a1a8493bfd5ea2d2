/**
 * @module The MCP endpoint: the read-only tools served statelessly to both protocol eras with JSON
 * bodies. The protocol stays in the official SDK's hands: 2026-07-28 traffic goes to
 * `createMcpHandler`, 2025-era traffic (as its `isLegacyRequest` decides) to a fresh stateless
 * `WebStandardStreamableHTTPServerTransport` with JSON responses, one factory serving both.
 * The modern leg stays in its default `auto` mode: it answers JSON because no tool emits
 * anything before its result.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  type StandardSchemaWithJSON,
  type ToolAnnotations,
} from '@modelcontextprotocol/server';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import type { Product } from '../schemas.ts';
import { TOOLS } from './tools.ts';

export { MCP_PROTOCOL_VERSIONS } from './versions.ts';

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * `toStandardJsonSchema` converts to JSON Schema each time it is asked, and the SDK asks on every
 * request (a fresh server per request): convert once per target and hand out the same result.
 */
function convertedOnce(schema: v.GenericSchema): StandardSchemaWithJSON {
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
  return { '~standard': { ...standard['~standard'], jsonSchema: { input: memo(input), output: memo(output) } } } as StandardSchemaWithJSON;
}

const CONVERTED = new Map(TOOLS.flatMap((tool) => [tool.input, tool.output]).map((schema) => [schema, convertedOnce(schema)]));

function result(structuredContent: Record<string, unknown>) {
  return { structuredContent, content: [{ type: 'text' as const, text: JSON.stringify(structuredContent) }] };
}

function buildServer(facts: Product, info: { name: string; version: string }): McpServer {
  const server = new McpServer(info, {
    instructions: `Read-only, reviewed public facts about ${facts.product.name}. No tool creates or changes anything.`,
  });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description(facts),
        inputSchema: CONVERTED.get(tool.input)!,
        outputSchema: CONVERTED.get(tool.output)!,
        annotations: READ_ONLY,
      },
      (args) => result(tool.answer(facts, args as Record<string, unknown>)),
    );
  }
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
